#include <gtest/gtest.h>

#include "controller/docs/FlagReference.h"

namespace dra::docs {
namespace {

std::vector<FlagReference::Group> TwoGroups() {
  std::vector<FlagReference::Group> groups(2);
  groups[0].title = "run";
  groups[0].flags.String("log-level", "info", "Log level");
  groups[1].title = "Feature: health";
  groups[1].flags.Bool("health", true, "Turn | it on");
  return groups;
}

TEST(FlagReferenceTest, OneTablePerGroupWithTypeAndDefault) {
  auto groups = TwoGroups();
  kube::FlagSet all;
  all.String("log-level", "info", "Log level");
  all.Bool("health", true, "Turn | it on");
  auto page = FlagReference::Markdown(groups, all);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_NE(page->find("## run\n\n| Flag | Type | Default | Description |"), std::string::npos);
  EXPECT_NE(page->find("| `--log-level` | string | `info` | Log level |"), std::string::npos)
      << *page;
  EXPECT_NE(page->find("## Feature: health"), std::string::npos);
  EXPECT_NE(page->find("| `--health` | bool | `true` | Turn \\| it on |"), std::string::npos)
      << *page;
}

TEST(FlagReferenceTest, AFlagRunParsesButNoGroupDeclaresIsAnError) {
  kube::FlagSet all;
  all.String("log-level", "info", "Log level");
  all.Bool("health", true, "Turn it on");
  all.String("stray", "", "Declared outside the groups");
  auto page = FlagReference::Markdown(TwoGroups(), all);
  ASSERT_FALSE(page.ok());
  EXPECT_NE(page.status().message().find("--stray"), std::string::npos);
}

}  // namespace
}  // namespace dra::docs
