#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/cli/CommandLine.h"

namespace dra::cli {
namespace {

class EchoCommand : public Command {
 public:
  std::string_view Name() const override { return "echo"; }
  std::string_view Summary() const override { return "Echo arguments"; }
  std::string Help() const override { return "echo help\n"; }
  int Run(std::span<const std::string> args, CommandIo io) override {
    for (const auto& a : args) io.out << a << ";";
    return static_cast<int>(args.size());
  }
};

class CommandLineTest : public ::testing::Test {
 protected:
  CommandLineTest() { cli_.Register(std::make_unique<EchoCommand>()); }
  int Run(std::vector<std::string> argv) { return cli_.Run(argv, {out_, err_}); }

  CommandLine cli_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(CommandLineTest, DispatchesArgumentsToCommand) {
  EXPECT_EQ(Run({"echo", "a", "b"}), 2);
  EXPECT_EQ(out_.str(), "a;b;");
}

// `--version` is the conventional spelling of the `version` command.
TEST_F(CommandLineTest, VersionFlagRunsVersionCommand) {
  class FakeVersion : public EchoCommand {
   public:
    std::string_view Name() const override { return "version"; }
  };
  cli_.Register(std::make_unique<FakeVersion>());
  EXPECT_EQ(Run({"--version"}), 0);
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(Run({"--version", "x"}), 1);
  EXPECT_EQ(out_.str(), "x;");
}

TEST_F(CommandLineTest, NoArgumentsIsUsageError) {
  EXPECT_EQ(Run({}), kExitUsage);
  EXPECT_NE(err_.str().find("Usage:"), std::string::npos);
}

TEST_F(CommandLineTest, TopLevelHelpListsCommands) {
  EXPECT_EQ(Run({"--help"}), kExitOk);
  EXPECT_NE(out_.str().find("echo"), std::string::npos);
  EXPECT_NE(out_.str().find("Echo arguments"), std::string::npos);
}

TEST_F(CommandLineTest, CommandHelpFlagPrintsHelpWithoutRunning) {
  EXPECT_EQ(Run({"echo", "x", "--help"}), kExitOk);
  EXPECT_EQ(out_.str(), "echo help\n");
}

TEST_F(CommandLineTest, HelpSubcommand) {
  EXPECT_EQ(Run({"help", "echo"}), kExitOk);
  EXPECT_EQ(out_.str(), "echo help\n");
  EXPECT_EQ(Run({"help", "nope"}), kExitUsage);
}

TEST_F(CommandLineTest, UnknownCommandIsUsageError) {
  EXPECT_EQ(Run({"frobnicate"}), kExitUsage);
  EXPECT_NE(err_.str().find("unknown command \"frobnicate\""), std::string::npos);
}

class LongNameCommand : public EchoCommand {
 public:
  std::string_view Name() const override { return "migration-report"; }
  std::string_view Summary() const override { return "List workloads"; }
};

// Names longer than the old fixed column ran into their summary
// ("migration-reportList ...").
TEST_F(CommandLineTest, HelpSeparatesLongNamesFromSummariesAndAlignsThem) {
  cli_.Register(std::make_unique<LongNameCommand>());
  EXPECT_EQ(Run({"help"}), kExitOk);
  const std::string text = out_.str();
  EXPECT_NE(text.find("\n  migration-report  List workloads\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  echo              Echo arguments\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace dra::cli
