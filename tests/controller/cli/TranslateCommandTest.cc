#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "controller/cli/TranslateCommand.h"
#include "tests/controller/translate/TestData.h"
#include "tests/support/TempDir.h"

namespace dra::cli {
namespace {

namespace fs = std::filesystem;
namespace td = translate::testdata;

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class TranslateCommandTest : public ::testing::Test {
 protected:
  int Run(std::vector<std::string> args, const std::string& stdin_text = "") {
    std::istringstream in(stdin_text);
    TranslateCommand command(in);
    out_.str("");
    err_.str("");
    return command.Run(args, {out_, err_});
  }
  std::string Data(const std::string& name) const { return (td::Dir() / name).string(); }
  std::string Classes() const { return "--classes=" + Data("classes.yaml"); }

  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(TranslateCommandTest, FileToStdoutMatchesGolden) {
  EXPECT_EQ(Run({"-f", Data("deployment.yaml"), Classes()}), kExitOk) << err_.str();
  EXPECT_EQ(out_.str(), td::Read("deployment.golden.yaml"));
  EXPECT_NE(err_.str().find("translated 1 workload(s) into 2 ResourceClaimTemplate(s)"),
            std::string::npos);
}

TEST_F(TranslateCommandTest, StdinToOutputFile) {
  testing::TempDir dir;
  fs::path out = dir.path() / "out.yaml";
  EXPECT_EQ(Run({"-f", "-", "-o", out.string(), Classes()}, td::Read("kinds.yaml")), kExitOk);
  EXPECT_EQ(Slurp(out), td::Read("kinds.golden.yaml"));
  EXPECT_EQ(out_.str(), "");
}

TEST_F(TranslateCommandTest, DirectoryToDirectoryKeepsRelativePaths) {
  testing::TempDir in;
  testing::TempDir out;
  fs::create_directories(in.path() / "apps");
  std::ofstream(in.path() / "apps" / "deploy.yaml") << td::Read("deployment.yaml");
  std::ofstream(in.path() / "svc.yml") << td::Read("passthrough.yaml");
  std::ofstream(in.path() / "README.md") << "not a manifest";
  EXPECT_EQ(Run({"-f", in.path().string(), "-o", out.path().string(), Classes()}), kExitOk)
      << err_.str();
  EXPECT_EQ(Slurp(out.path() / "apps" / "deploy.yaml"), td::Read("deployment.golden.yaml"));
  EXPECT_EQ(Slurp(out.path() / "svc.yml"), td::Read("passthrough.yaml"));
  EXPECT_FALSE(fs::exists(out.path() / "README.md"));
}

TEST_F(TranslateCommandTest, CheckListsPlacesAndExitsOne) {
  EXPECT_EQ(Run({"--check", "-f", Data("init-containers.yaml"), Classes()}), kExitFailure);
  EXPECT_NE(out_.str().find("init-containers.yaml: document 1 (Pod staged): "
                            "spec.initContainers[0].resources.limits[example.com/gpu]: "
                            "example.com/gpu: 3 (DeviceClass gpu.example.com)"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("5 place(s) still request"), std::string::npos) << out_.str();
}

TEST_F(TranslateCommandTest, CheckPassesOnTranslatedOutput) {
  testing::TempDir dir;
  std::string translated = dir.Write("t.yaml", td::Read("kinds.golden.yaml"));
  EXPECT_EQ(Run({"--check", "-f", translated, Classes()}), kExitOk) << out_.str();
  EXPECT_EQ(out_.str(), "no DRA-backed extended resources requested\n");
}

TEST_F(TranslateCommandTest, DryRunPrintsADiffAndWritesNothing) {
  testing::TempDir dir;
  std::string file = dir.Write("p.yaml", td::Read("kinds.yaml"));
  EXPECT_EQ(Run({"--dry-run", "-f", file, Classes()}), kExitOk);
  EXPECT_EQ(out_.str().rfind("--- a/" + file + "\n+++ b/" + file + "\n@@ ", 0), 0u) << out_.str();
  EXPECT_NE(out_.str().find("\n+kind: ResourceClaimTemplate\n"), std::string::npos);
  EXPECT_NE(out_.str().find("\n-        example.com/gpu: 1\n"), std::string::npos);
  EXPECT_EQ(Slurp(file), td::Read("kinds.yaml"));
}

TEST_F(TranslateCommandTest, RefusalsExitOneUnlessSkipped) {
  EXPECT_EQ(Run({"-f", Data("refusals.yaml"), Classes()}), kExitFailure);
  EXPECT_NE(
      err_.str().find("error: " + Data("refusals.yaml") + ": document 1 (PyTorchJob ml/train)"),
      std::string::npos)
      << err_.str();
  EXPECT_EQ(out_.str(), td::Read("refusals.yaml"));
  EXPECT_EQ(Run({"-f", Data("refusals.yaml"), Classes(), "--skip-unsupported"}), kExitOk);
  EXPECT_NE(err_.str().find("skipped: "), std::string::npos);
}

TEST_F(TranslateCommandTest, UsageErrors) {
  EXPECT_EQ(Run({Classes()}), kExitUsage);
  EXPECT_EQ(Run({"-f", "x", "--check", "--dry-run", Classes()}), kExitUsage);
  EXPECT_EQ(Run({"-f", "x", "extra", Classes()}), kExitUsage);
  EXPECT_EQ(Run({"--bogus"}), kExitUsage);
}

TEST_F(TranslateCommandTest, MissingFilesAreFailures) {
  EXPECT_EQ(Run({"-f", "/nonexistent/x.yaml", Classes()}), kExitFailure);
  EXPECT_EQ(Run({"-f", Data("kinds.yaml"), "--classes=/nonexistent"}), kExitFailure);
  EXPECT_NE(err_.str().find("/nonexistent"), std::string::npos);
}

TEST_F(TranslateCommandTest, WithoutClassesItNeedsACluster) {
  EXPECT_EQ(Run({"-f", Data("kinds.yaml"), "--kubeconfig=/nonexistent/kubeconfig"}), kExitFailure);
  EXPECT_NE(err_.str().find("DeviceClasses"), std::string::npos) << err_.str();
}

}  // namespace
}  // namespace dra::cli
