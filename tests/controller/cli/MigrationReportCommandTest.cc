#include <gtest/gtest.h>

#include <sstream>

#include "controller/cli/MigrationReportCommand.h"

namespace dra::cli {
namespace {

int RunReport(std::vector<std::string> args, std::ostringstream& err) {
  std::ostringstream out;
  MigrationReportCommand command;
  return command.Run(args, {out, err});
}

TEST(MigrationReportCommandTest, UsageErrors) {
  std::ostringstream err;
  EXPECT_EQ(RunReport({"-o", "yaml"}, err), kExitUsage);
  EXPECT_NE(err.str().find("-o must be table or json"), std::string::npos);
  EXPECT_EQ(RunReport({"extra"}, err), kExitUsage);
  EXPECT_EQ(RunReport({"--bogus"}, err), kExitUsage);
}

TEST(MigrationReportCommandTest, UnreadableKubeconfigIsAFailure) {
  std::ostringstream err;
  EXPECT_EQ(RunReport({"--kubeconfig=/nonexistent/kubeconfig"}, err), kExitFailure);
  EXPECT_NE(err.str().find("/nonexistent/kubeconfig"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace dra::cli
