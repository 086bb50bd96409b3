#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/cli/CheckCommand.h"

namespace dra::cli {
namespace {

int RunCommand(std::vector<std::string> args, std::string* err = nullptr) {
  CheckCommand cmd;
  std::ostringstream out, errs;
  int code = cmd.Run(args, {out, errs});
  if (err != nullptr) *err = errs.str();
  return code;
}

TEST(CheckCommandTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCommand({"extra"}), kExitUsage);
  EXPECT_EQ(RunCommand({"-o", "yaml"}), kExitUsage);
  EXPECT_EQ(RunCommand({"--bogus"}), kExitUsage);
}

TEST(CheckCommandTest, UnreadableKubeconfigExitsOne) {
  std::string err;
  EXPECT_EQ(RunCommand({"--kubeconfig", "/nonexistent/kubeconfig", "-n", "ops"}, &err),
            kExitFailure);
  EXPECT_NE(err.find("/nonexistent/kubeconfig"), std::string::npos) << err;
}

TEST(CheckCommandTest, HelpNamesThePluginSpelling) {
  CheckCommand cmd;
  EXPECT_NE(cmd.Help().find("kubectl dra check"), std::string::npos);
  EXPECT_NE(cmd.Help().find("--namespace"), std::string::npos);
}

}  // namespace
}  // namespace dra::cli
