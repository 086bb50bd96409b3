#include <gtest/gtest.h>

#include "controller/check/KubectlPlugin.h"

namespace dra::check {
namespace {

using Args = std::vector<std::string>;

TEST(KubectlPluginTest, RecognisedByBasename) {
  EXPECT_TRUE(KubectlPlugin::InvokedAsPlugin("kubectl-dra"));
  EXPECT_TRUE(KubectlPlugin::InvokedAsPlugin("/usr/local/bin/kubectl-dra"));
  EXPECT_FALSE(KubectlPlugin::InvokedAsPlugin("/usr/local/bin/dra-controller"));
  EXPECT_FALSE(KubectlPlugin::InvokedAsPlugin("kubectl-dra-old"));
}

TEST(KubectlPluginTest, LeadingKubectlFlagsMoveBehindTheSubcommand) {
  EXPECT_EQ(KubectlPlugin::Arguments({"-n", "ops", "--context=prod", "check", "-o", "json"}),
            (Args{"check", "-n", "ops", "--context=prod", "-o", "json"}));
  EXPECT_EQ(KubectlPlugin::Arguments({"--kubeconfig", "/k", "-nops", "explain", "pod"}),
            (Args{"explain", "--kubeconfig", "/k", "-nops", "pod"}));
}

TEST(KubectlPluginTest, OtherArgumentsUntouched) {
  EXPECT_EQ(KubectlPlugin::Arguments({"check", "-n", "ops"}), (Args{"check", "-n", "ops"}));
  EXPECT_EQ(KubectlPlugin::Arguments({"-n", "ops"}), (Args{"-n", "ops"}));
  EXPECT_EQ(KubectlPlugin::Arguments({}), Args{});
}

}  // namespace
}  // namespace dra::check
