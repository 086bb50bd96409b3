#include <gtest/gtest.h>

#include <regex>

#include "controller/translate/NameAllocator.h"

namespace dra::translate {
namespace {

bool IsDnsLabel(const std::string& name) {
  static const std::regex kLabel("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return name.size() <= 63 && std::regex_match(name, kLabel);
}

TEST(NameAllocatorTest, Sanitize) {
  EXPECT_EQ(NameAllocator::Sanitize("Example.COM/gpu"), "example-com-gpu");
  EXPECT_EQ(NameAllocator::Sanitize("--a__b--"), "a-b");
  EXPECT_EQ(NameAllocator::Sanitize("///"), "x");
}

TEST(NameAllocatorTest, ClaimNameIsTheLastSegment) {
  EXPECT_EQ(NameAllocator::ClaimNameFor("example.com/gpu"), "gpu");
  EXPECT_EQ(NameAllocator::ClaimNameFor("deviceclass.resource.kubernetes.io/gpu.example.com"),
            "gpu-example-com");
}

TEST(NameAllocatorTest, LongNamesAreCutWithAHashAndStayDistinct) {
  std::string a(80, 'a');
  std::string b = a + "b";
  std::string short_a = NameAllocator::Shorten(a);
  std::string short_b = NameAllocator::Shorten(b);
  EXPECT_TRUE(IsDnsLabel(short_a)) << short_a;
  EXPECT_TRUE(IsDnsLabel(short_b)) << short_b;
  EXPECT_NE(short_a, short_b);
  EXPECT_EQ(short_a, NameAllocator::Shorten(a));
  std::string dash_at_cut = std::string(53, 'a') + "-" + std::string(20, 'b');
  EXPECT_TRUE(IsDnsLabel(NameAllocator::Shorten(dash_at_cut)));
}

TEST(NameAllocatorTest, CollisionsTakeTheKindThenAHash) {
  NameAllocator names;
  names.Reserve("ns", "web-gpu");
  EXPECT_EQ(names.Allocate("ns", "deployment", "web", "gpu"), "web-deployment-gpu");
  EXPECT_EQ(names.Allocate("other", "deployment", "web", "gpu"), "web-gpu");
  std::string third = names.Allocate("ns", "deployment", "web", "gpu");
  EXPECT_TRUE(IsDnsLabel(third)) << third;
  EXPECT_NE(third, "web-deployment-gpu");
  EXPECT_TRUE(names.Taken("ns", third));
  NameAllocator again;
  again.Reserve("ns", "web-gpu");
  EXPECT_EQ(again.Allocate("ns", "deployment", "web", "gpu"), "web-deployment-gpu");
  EXPECT_EQ(again.Allocate("ns", "deployment", "web", "gpu"), third);
}

}  // namespace
}  // namespace dra::translate
