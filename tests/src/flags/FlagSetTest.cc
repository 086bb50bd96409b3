#include <gtest/gtest.h>

#include <vector>

#include "src/flags/FlagSet.h"

namespace kube {
namespace {

FlagSet MakeFlags() {
  FlagSet flags;
  flags.String("kubeconfig", "", "path");
  flags.String("metrics-bind-address", ":8080", "addr");
  flags.Bool("leader-elect", false, "elect");
  return flags;
}

TEST(FlagSetTest, ParsesBothValueForms) {
  FlagSet flags = MakeFlags();
  std::vector<std::string> args{"--kubeconfig", "/k", "--metrics-bind-address=:9", "pos"};
  ASSERT_TRUE(flags.Parse(args).ok());
  EXPECT_EQ(flags.Get("kubeconfig"), "/k");
  EXPECT_EQ(flags.Get("metrics-bind-address"), ":9");
  EXPECT_TRUE(flags.WasSet("kubeconfig"));
  EXPECT_EQ(flags.positional(), std::vector<std::string>{"pos"});
}

TEST(FlagSetTest, DefaultsApplyWhenUnset) {
  FlagSet flags = MakeFlags();
  ASSERT_TRUE(flags.Parse({}).ok());
  EXPECT_EQ(flags.Get("metrics-bind-address"), ":8080");
  EXPECT_FALSE(flags.GetBool("leader-elect"));
  EXPECT_FALSE(flags.WasSet("leader-elect"));
}

TEST(FlagSetTest, BooleansTakeNoSeparateValue) {
  FlagSet flags = MakeFlags();
  std::vector<std::string> args{"--leader-elect", "x"};
  ASSERT_TRUE(flags.Parse(args).ok());
  EXPECT_TRUE(flags.GetBool("leader-elect"));
  EXPECT_EQ(flags.positional(), std::vector<std::string>{"x"});
  FlagSet off = MakeFlags();
  std::vector<std::string> explicit_off{"--leader-elect=false"};
  ASSERT_TRUE(off.Parse(explicit_off).ok());
  EXPECT_FALSE(off.GetBool("leader-elect"));
}

TEST(FlagSetTest, ErrorsAreSpecific) {
  FlagSet a = MakeFlags();
  std::vector<std::string> unknown{"--nope"};
  EXPECT_EQ(a.Parse(unknown).message(), "unknown flag --nope");
  FlagSet b = MakeFlags();
  std::vector<std::string> missing{"--kubeconfig"};
  EXPECT_EQ(b.Parse(missing).message(), "flag --kubeconfig needs a value");
  FlagSet c = MakeFlags();
  std::vector<std::string> bad_bool{"--leader-elect=yes"};
  EXPECT_NE(c.Parse(bad_bool).message().find("true or false"), std::string::npos);
}

TEST(FlagSetTest, DoubleDashEndsFlags) {
  FlagSet flags = MakeFlags();
  std::vector<std::string> args{"--", "--kubeconfig"};
  ASSERT_TRUE(flags.Parse(args).ok());
  EXPECT_EQ(flags.positional(), std::vector<std::string>{"--kubeconfig"});
}

TEST(FlagSetTest, UsageListsFlagsWithDefaults) {
  std::string usage = MakeFlags().Usage();
  EXPECT_NE(usage.find("--metrics-bind-address string"), std::string::npos);
  EXPECT_NE(usage.find("(default \":8080\")"), std::string::npos);
}

TEST(FlagSetTest, ShortSpellingsExpandToTheirLongFlag) {
  FlagSet flags;
  flags.String("namespace", "default", "namespace");
  flags.String("output", "", "format");
  flags.Bool("all", false, "all");
  flags.Short('n', "namespace");
  flags.Short('o', "output");
  flags.Short('A', "all");
  std::vector<std::string> args{"-n", "gpu", "-ojson", "-A", "pod/x", "-z"};
  ASSERT_TRUE(flags.Parse(args).ok());
  EXPECT_EQ(flags.Get("namespace"), "gpu");
  EXPECT_EQ(flags.Get("output"), "json");
  EXPECT_TRUE(flags.GetBool("all"));
  EXPECT_EQ(flags.positional(), (std::vector<std::string>{"pod/x", "-z"}));
  EXPECT_NE(flags.Usage().find("-n, --namespace"), std::string::npos);
}

TEST(FlagSetTest, DescribeListsEveryFlagWithTypeDefaultAndShortSpelling) {
  FlagSet flags;
  flags.String("namespace", "default", "Namespace");
  flags.Bool("all", false, "Everything");
  flags.Short('n', "namespace");
  auto described = flags.Describe();
  ASSERT_EQ(described.size(), 2u);
  EXPECT_EQ(described[0].name, "all");
  EXPECT_EQ(described[0].type, "bool");
  EXPECT_EQ(described[0].default_value, "false");
  EXPECT_EQ(described[0].short_name, "");
  EXPECT_EQ(described[1].name, "namespace");
  EXPECT_EQ(described[1].type, "string");
  EXPECT_EQ(described[1].default_value, "default");
  EXPECT_EQ(described[1].help, "Namespace");
  EXPECT_EQ(described[1].short_name, "n");
}

}  // namespace
}  // namespace kube
