#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/BuildInfo.h"
#include "controller/cli/VersionCommand.h"

namespace dra::cli {
namespace {

TEST(VersionCommandTest, PrintsVersionAndTarget) {
  VersionCommand cmd;
  std::ostringstream out, err;
  std::vector<std::string> none;
  EXPECT_EQ(cmd.Run(none, {out, err}), kExitOk);
  EXPECT_EQ(out.str().rfind(std::string("dra-controller ") + build::kVersion, 0), 0u) << out.str();
  EXPECT_NE(out.str().find("v1.37"), std::string::npos);
}

TEST(VersionCommandTest, RejectsArguments) {
  VersionCommand cmd;
  std::ostringstream out, err;
  std::vector<std::string> args{"extra"};
  EXPECT_EQ(cmd.Run(args, {out, err}), kExitUsage);
  EXPECT_NE(err.str().find("extra"), std::string::npos);
}

}  // namespace
}  // namespace dra::cli
