// `make release VERSION=x.y.z` (hack/release.sh): it refuses to release unless
// VERSION, the chart's version and appVersion and the tag on HEAD all say
// x.y.z, and then packages the chart with that version. Each case runs the
// script on a scratch git repository holding copies of VERSION and the chart,
// so no tag is ever made in the real checkout. The chart is packaged for real
// when helm is there (DRA_HELM, as the cluster's env file exports it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/RepoRoot.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kChart = "manifests/helm/dra-controller";

class ReleaseTest : public ::testing::Test {
 protected:
  // A git repository with VERSION and the chart at `version`, committed.
  void SetUp() override {
    fs::create_directories(root() / kChart);
    fs::copy(RepoRoot::Path(kChart), root() / kChart, fs::copy_options::recursive);
    Git({"init", "-q"});
    SetVersion("1.2.3");
  }

  fs::path root() const { return dir_.path(); }

  ProcessOutput Git(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {
        "git", "-C", root().string(), "-c", "user.name=test", "-c", "user.email=test@example.com"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto run = Subprocess::Run(argv);
    EXPECT_TRUE(run.ok() && run->exit_code == 0) << (run.ok() ? run->err : "");
    return run.ok() ? *run : ProcessOutput{};
  }

  // VERSION and Chart.yaml's version/appVersion set to `version`, committed.
  void SetVersion(const std::string& version, const std::string& chart_version = "") {
    fs::create_directories(root() / "controller");
    std::ofstream(root() / "controller" / "VERSION") << version << "\n";
    std::string chart_path = (root() / kChart / "Chart.yaml").string();
    std::ifstream in(chart_path);
    std::string line, chart;
    const std::string& chart_v = chart_version.empty() ? version : chart_version;
    while (std::getline(in, line)) {
      if (line.rfind("version:", 0) == 0) line = "version: " + chart_v;
      if (line.rfind("appVersion:", 0) == 0) line = "appVersion: \"" + chart_v + "\"";
      chart += line + "\n";
    }
    in.close();
    std::ofstream(chart_path) << chart;
    Git({"add", "-A"});
    Git({"commit", "-q", "-m", "version " + version});
  }

  ProcessOutput Release(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"env", "DRA_RELEASE_ROOT=" + root().string(),
                                     RepoRoot::Path("hack/release.sh")};
    argv.insert(argv.end(), args.begin(), args.end());
    auto run = Subprocess::Run(argv);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    return run.ok() ? *run : ProcessOutput{};
  }

  TempDir dir_;
};

TEST_F(ReleaseTest, DryRunOfTaggedCommitPrintsImageAndChartCommands) {
  Git({"tag", "v1.2.3"});
  ProcessOutput run = Release({"--dry-run", "1.2.3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("DRA_IMAGE_TAG=1.2.3"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("hack/image/build.sh"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("package"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--version 1.2.3 --app-version 1.2.3"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(root() / "dist")) << "a dry run wrote dist/";
}

TEST_F(ReleaseTest, RefusesAVersionOtherThanTheVersionFile) {
  Git({"tag", "v1.2.3"});
  ProcessOutput run = Release({"--dry-run", "1.2.4"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("VERSION says 1.2.3, not 1.2.4"), std::string::npos) << run.err;
}

TEST_F(ReleaseTest, RefusesAnUntaggedOrOtherwiseTaggedCommit) {
  ProcessOutput untagged = Release({"--dry-run", "1.2.3"});
  EXPECT_EQ(untagged.exit_code, 1);
  EXPECT_NE(untagged.err.find("HEAD is not tagged v1.2.3 (tags on HEAD: none)"), std::string::npos)
      << untagged.err;
  Git({"tag", "v1.2.2"});
  ProcessOutput other = Release({"--dry-run", "1.2.3"});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_NE(other.err.find("tags on HEAD: v1.2.2"), std::string::npos) << other.err;
}

TEST_F(ReleaseTest, RefusesAChartThatSaysAnotherVersion) {
  SetVersion("1.2.3", "1.2.0");
  Git({"tag", "v1.2.3"});
  ProcessOutput run = Release({"--dry-run", "1.2.3"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("Chart.yaml version is 1.2.0, not 1.2.3"), std::string::npos) << run.err;
}

TEST_F(ReleaseTest, RefusesUncommittedChangesAndNonSemanticVersions) {
  Git({"tag", "v1.2.3"});
  std::ofstream(root() / "controller" / "VERSION", std::ios::app) << "\n";
  ProcessOutput dirty = Release({"--dry-run", "1.2.3"});
  EXPECT_EQ(dirty.exit_code, 1);
  EXPECT_NE(dirty.err.find("uncommitted changes"), std::string::npos) << dirty.err;
  ProcessOutput bad = Release({"--dry-run", "1.2"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("1.2 is not a semantic version"), std::string::npos) << bad.err;
}

TEST_F(ReleaseTest, PackagesTheChartWithTheVersion) {
  const char* helm = std::getenv("DRA_HELM");
  if (helm == nullptr || !fs::exists(helm)) GTEST_SKIP() << "DRA_HELM names no helm binary";
  Git({"tag", "v1.2.3"});
  ProcessOutput run = Release({"--skip-image", "1.2.3"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  fs::path package = root() / "dist" / "dra-controller-1.2.3.tgz";
  ASSERT_TRUE(fs::exists(package)) << run.out << run.err;
  auto chart = Subprocess::Run({"tar", "-xzOf", package.string(), "dra-controller/Chart.yaml"});
  ASSERT_TRUE(chart.ok() && chart->exit_code == 0);
  EXPECT_NE(chart->out.find("\nversion: 1.2.3\n"), std::string::npos) << chart->out;
  EXPECT_NE(chart->out.find("\nappVersion: 1.2.3\n"), std::string::npos) << chart->out;
}

}  // namespace
}  // namespace dra::testing
