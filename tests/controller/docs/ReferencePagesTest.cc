#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "controller/cli/DocsCommand.h"
#include "controller/docs/CompatibilityReference.h"
#include "tests/support/RepoRoot.h"

namespace dra::docs {
namespace {

using testing::RepoRoot;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line where `a` and `b` differ, to say where a page went stale.
std::string FirstDifference(const std::string& checked_in, const std::string& generated) {
  std::istringstream a(checked_in), b(generated);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool more_a = static_cast<bool>(std::getline(a, la));
    bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "";
    if (!more_a || !more_b || la != lb) {
      return "line " + std::to_string(line) + ":\n  checked in: " + (more_a ? la : "<end>") +
             "\n  generated:  " + (more_b ? lb : "<end>");
    }
  }
}

// A page in docs/reference/ must be what `dra-controller docs PAGE` prints.
void ExpectUpToDate(const std::string& topic, const std::string& page) {
  auto generated = cli::DocsCommand::Generate(topic, RepoRoot::Path(""));
  ASSERT_TRUE(generated.ok()) << generated.status().ToString();
  std::string path = "docs/reference/" + page;
  std::string checked_in = ReadFile(RepoRoot::Path(path));
  EXPECT_TRUE(checked_in == *generated)
      << path << " differs from what `dra-controller docs " << topic
      << "` generates; run `make docs` and commit the result.\nFirst difference at "
      << FirstDifference(checked_in, *generated);
}

TEST(ReferencePagesTest, FlagsPageIsUpToDate) { ExpectUpToDate("flags", "flags.md"); }

TEST(ReferencePagesTest, MetricsPageIsUpToDate) { ExpectUpToDate("metrics", "metrics.md"); }

TEST(ReferencePagesTest, DeviceHealthPageIsUpToDate) { ExpectUpToDate("crd", "devicehealth.md"); }

TEST(ReferencePagesTest, CompatibilityPageIsUpToDate) {
  ExpectUpToDate("compatibility", "compatibility.md");
}

// README's Requirements hold the same version x job table as the code.
TEST(ReferencePagesTest, ReadmeCompatibilityTableIsTheGeneratedOne) {
  std::string readme = ReadFile(RepoRoot::Path("README.md"));
  auto begin = readme.find(CompatibilityReference::kReadmeBegin);
  auto end = readme.find(CompatibilityReference::kReadmeEnd);
  ASSERT_NE(begin, std::string::npos) << "README.md lost its compatibility table marker";
  ASSERT_NE(end, std::string::npos);
  begin += std::string(CompatibilityReference::kReadmeBegin).size() + 1;  // and its newline
  ASSERT_LE(begin, end);
  std::string in_readme = readme.substr(begin, end - begin);
  EXPECT_TRUE(in_readme == CompatibilityReference::Table())
      << "README.md's compatibility table differs from the code's; run `make docs`.\nFirst "
         "difference at "
      << FirstDifference(in_readme, CompatibilityReference::Table());
}

}  // namespace
}  // namespace dra::docs
