#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <vector>

#include "controller/cli/CommandLine.h"
#include "controller/cli/DocsCommand.h"
#include "tests/support/TempDir.h"

namespace dra::cli {
namespace {

int RunDocs(std::vector<std::string> args, std::ostringstream& out, std::ostringstream& err) {
  DocsCommand docs;
  return docs.Run(args, {out, err});
}

TEST(DocsCommandTest, PrintsTheFlagsPageWithEveryFeatureGroup) {
  std::ostringstream out, err;
  ASSERT_EQ(RunDocs({"flags"}, out, err), kExitOk) << err.str();
  EXPECT_NE(out.str().find("| `--leader-elect` | bool | `false` |"), std::string::npos);
  EXPECT_NE(out.str().find("## Feature: device-health"), std::string::npos);
  EXPECT_NE(out.str().find("## Feature: allocation-metrics"), std::string::npos);
}

TEST(DocsCommandTest, AnUnknownOrMissingPageIsAUsageError) {
  std::ostringstream out, err;
  EXPECT_EQ(RunDocs({"everything"}, out, err), kExitUsage);
  EXPECT_NE(err.str().find("unknown page \"everything\""), std::string::npos);
  EXPECT_EQ(RunDocs({}, out, err), kExitUsage);
  EXPECT_TRUE(out.str().empty());
}

TEST(DocsCommandTest, ARepositoryWithoutTheCrdIsAFailureNamingThePath) {
  testing::TempDir dir;
  std::ostringstream out, err;
  EXPECT_EQ(RunDocs({"crd", "--repo", dir.path().string()}, out, err), kExitFailure);
  EXPECT_NE(err.str().find(std::string(DocsCommand::kCrdPath)), std::string::npos) << err.str();
  EXPECT_TRUE(out.str().empty());
}

TEST(DocsCommandTest, HiddenFromTheCommandListYetRunnable) {
  CommandLine cli;
  cli.Register(std::make_unique<DocsCommand>());
  std::ostringstream out, err;
  std::vector<std::string> help{"--help"};
  EXPECT_EQ(cli.Run(help, {out, err}), kExitOk);
  EXPECT_EQ(out.str().find("docs"), std::string::npos) << out.str();
  std::vector<std::string> docs_help{"docs", "--help"};
  EXPECT_EQ(cli.Run(docs_help, {out, err}), kExitOk);
  EXPECT_NE(out.str().find("dra-controller docs flags|metrics|crd"), std::string::npos);
}

}  // namespace
}  // namespace dra::cli
