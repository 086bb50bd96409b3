#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/cli/MappingCommand.h"

namespace dra::cli {
namespace {

int RunCommand(std::vector<std::string> args) {
  MappingCommand cmd;
  std::ostringstream out, errs;
  return cmd.Run(args, {out, errs});
}

TEST(MappingCommandTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCommand({"extra"}), kExitUsage);
  EXPECT_EQ(RunCommand({"-o", "yaml"}), kExitUsage);
}

TEST(MappingCommandTest, UnreachableClusterExitsOne) {
  EXPECT_EQ(RunCommand({"--kubeconfig", "/nonexistent/kubeconfig"}), kExitFailure);
}

}  // namespace
}  // namespace dra::cli
