// hack/doc-links.py, the docs check `make test` runs over README.md, docs/,
// docs/reference/ and the chart README: each rule is shown failing on a page
// that breaks it (in a scratch checkout) and passing on the real checkout.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/RepoRoot.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::docs {
namespace {

using testing::ProcessOutput;
using testing::RepoRoot;
using testing::Subprocess;
using testing::TempDir;

ProcessOutput CheckDocs(const std::string& root) {
  auto run = Subprocess::Run({"python3", RepoRoot::Path("hack/doc-links.py"), root});
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  return run.ok() ? *run : ProcessOutput{};
}

class DocsCheckTest : public ::testing::Test {
 protected:
  DocsCheckTest() {
    std::filesystem::create_directories(dir_.path() / "docs" / "reference");
    dir_.Write("README.md", "# Front\n\nSee [the guide](docs/guide.md#setup).\n");
    dir_.Write("docs/guide.md", "# Guide\n\n## Setup\n\nFlags: [reference](reference/flags.md).\n");
    dir_.Write("docs/reference/flags.md", kFlagTable);
  }

  std::string root() const { return dir_.path().string(); }

  static constexpr const char* kFlagTable =
      "# Flags\n\n| Flag | Default |\n|---|---|\n| `--a` | 1 |\n| `--b` | 2 |\n";
  TempDir dir_;
};

TEST_F(DocsCheckTest, CleanPagesPass) {
  ProcessOutput run = CheckDocs(root());
  EXPECT_EQ(run.exit_code, 0) << run.out;
}

TEST_F(DocsCheckTest, BrokenLinkOrAnchorFails) {
  dir_.Write("docs/guide.md", "# Guide\n\n[gone](nothing.md), [no anchor](../README.md#nope)\n");
  ProcessOutput run = CheckDocs(root());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("missing file nothing.md"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("missing anchor ../README.md#nope"), std::string::npos) << run.out;
}

TEST_F(DocsCheckTest, BrokenLinkInReferencePageFails) {
  dir_.Write("docs/reference/metrics.md", "# Metrics\n\n[gone](gone.md)\n");
  ProcessOutput run = CheckDocs(root());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("docs/reference/metrics.md: missing file gone.md"), std::string::npos)
      << run.out;
}

TEST_F(DocsCheckTest, TestCountInProseFails) {
  dir_.Write("docs/guide.md", "# Guide\n\nThe suite has 1,234 unit tests.\n");
  ProcessOutput run = CheckDocs(root());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("test count in prose (\"1,234 unit tests\")"), std::string::npos)
      << run.out;
  dir_.Write("docs/guide.md", "# Guide\n\n41 test cases pass.\n");
  EXPECT_EQ(CheckDocs(root()).exit_code, 1);
}

TEST_F(DocsCheckTest, FlagTableOutsideReferenceFails) {
  dir_.Write("README.md", std::string("# Front\n\n") + kFlagTable);
  ProcessOutput run = CheckDocs(root());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("README.md: line 5: a flag table"), std::string::npos) << run.out;
  dir_.Write("README.md", "# Front\n\n| | x |\n|---|---|\n| `--a` | 1 |\n| `--b=2` | 2 |\n");
  EXPECT_EQ(CheckDocs(root()).exit_code, 1) << "a headless table of flags is a flag table too";
}

TEST_F(DocsCheckTest, CodeBlocksAndCodeSpansAreNotProse) {
  dir_.Write(
      "docs/guide.md",
      "# Guide\n\n## Setup\n\nA name matches `[a-z]([-a-z0-9]*[a-z0-9])`.\n\n```\n| Flag |\n|---|\n"
      "| `--a` |\n| `--b` |\n12 tests\n```\n");
  ProcessOutput run = CheckDocs(root());
  EXPECT_EQ(run.exit_code, 0) << run.out;
}

TEST(DocsCheckRepoTest, CheckedInDocsPass) {
  ProcessOutput run = CheckDocs(RepoRoot::Path(""));
  EXPECT_EQ(run.exit_code, 0) << run.out;
}

}  // namespace
}  // namespace dra::docs
