#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/cli/ExplainCommand.h"

namespace dra::cli {
namespace {

int RunCommand(std::vector<std::string> args, std::string* err = nullptr) {
  ExplainCommand cmd;
  std::ostringstream out, errs;
  int code = cmd.Run(args, {out, errs});
  if (err) *err = errs.str();
  return code;
}

TEST(ExplainCommandTest, UsageErrorsExitTwo) {
  std::string err;
  EXPECT_EQ(RunCommand({}, &err), kExitUsage);
  EXPECT_NE(err.find("explain pod NS/NAME"), std::string::npos);
  EXPECT_EQ(RunCommand({"node", "x"}), kExitUsage);
  EXPECT_EQ(RunCommand({"pod", "a/b/c"}), kExitUsage);
  EXPECT_EQ(RunCommand({"pod", "ns/"}), kExitUsage);
  EXPECT_EQ(RunCommand({"pod", "ns/p", "-o", "yaml"}), kExitUsage);
  EXPECT_EQ(RunCommand({"pod", "ns/p", "--bogus"}), kExitUsage);
}

TEST(ExplainCommandTest, UnreachableClusterExitsOne) {
  std::string err;
  EXPECT_EQ(RunCommand({"pod", "ns/p", "--kubeconfig", "/nonexistent/kubeconfig"}, &err),
            kExitFailure);
  EXPECT_NE(err.find("error"), std::string::npos);
}

TEST(ExplainCommandTest, HelpNamesExitCodes) {
  ExplainCommand cmd;
  EXPECT_NE(cmd.Help().find("Exit 0 scheduled or schedulable, 1 not"), std::string::npos);
}

}  // namespace
}  // namespace dra::cli
