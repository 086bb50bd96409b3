#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "controller/BuildInfo.h"
#include "controller/cli/VersionCommand.h"
#include "tests/support/RepoRoot.h"

namespace dra::cli {
namespace {

TEST(VersionCommandTest, PrintsVersionAndTarget) {
  VersionCommand cmd;
  std::ostringstream out, err;
  std::vector<std::string> none;
  EXPECT_EQ(cmd.Run(none, {out, err}), kExitOk);
  EXPECT_EQ(out.str().rfind(std::string("dra-controller ") + build::kVersion, 0), 0u) << out.str();
  EXPECT_NE(out.str().find("v1.37"), std::string::npos);
}

std::string ReadFile(const std::string& relative) {
  std::ifstream in(testing::RepoRoot::Path(relative));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value of a top-level `key:` line of a YAML file, quotes removed.
std::string TopLevelYamlValue(const std::string& yaml, const std::string& key) {
  std::smatch match;
  std::regex line("(^|\n)" + key + ":[ \t]*\"?([^\"\n]*)\"?");
  return std::regex_search(yaml, match, line) ? match[2].str() : "";
}

// VERSION is the one source of the release version: the binary is built from
// it (CMakeLists.txt) and the chart must say the same (`make release` checks
// the tag against it).
TEST(VersionCommandTest, BinaryChartAndVersionFileAgree) {
  std::string version = ReadFile("controller/VERSION");
  ASSERT_FALSE(version.empty()) << "no controller/VERSION file in the checkout";
  version.erase(version.find_last_not_of(" \n") + 1);
  EXPECT_TRUE(std::regex_match(version, std::regex(R"(\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)")))
      << "VERSION is not a semantic version: " << version;
  EXPECT_EQ(build::kVersion, version) << "rebuild: the binary was configured from another VERSION";
  std::string chart = ReadFile("manifests/helm/dra-controller/Chart.yaml");
  EXPECT_EQ(TopLevelYamlValue(chart, "version"), version) << "Chart.yaml version";
  EXPECT_EQ(TopLevelYamlValue(chart, "appVersion"), version) << "Chart.yaml appVersion";
}

TEST(VersionCommandTest, RejectsArguments) {
  VersionCommand cmd;
  std::ostringstream out, err;
  std::vector<std::string> args{"extra"};
  EXPECT_EQ(cmd.Run(args, {out, err}), kExitUsage);
  EXPECT_NE(err.str().find("extra"), std::string::npos);
}

}  // namespace
}  // namespace dra::cli
