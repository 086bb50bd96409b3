#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/cli/DevicesCommand.h"

namespace dra::cli {
namespace {

int RunCommand(std::vector<std::string> args, std::string* err = nullptr) {
  DevicesCommand cmd;
  std::ostringstream out, errs;
  int code = cmd.Run(args, {out, errs});
  if (err) *err = errs.str();
  return code;
}

TEST(DevicesCommandTest, UsageErrorsExitTwo) {
  std::string err;
  EXPECT_EQ(RunCommand({"--state", "busy"}, &err), kExitUsage);
  EXPECT_NE(err.find("--state must be free, allocated, unavailable or tainted"), std::string::npos);
  EXPECT_EQ(RunCommand({"extra"}), kExitUsage);
  EXPECT_EQ(RunCommand({"-o", "wide"}), kExitUsage);
}

TEST(DevicesCommandTest, UnreachableClusterExitsOne) {
  EXPECT_EQ(RunCommand({"--state", "free", "--kubeconfig", "/nonexistent/kubeconfig"}),
            kExitFailure);
}

}  // namespace
}  // namespace dra::cli
