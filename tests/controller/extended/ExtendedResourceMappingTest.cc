#include <gtest/gtest.h>

#include "controller/extended/ExtendedResourceMapping.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::extended {
namespace {

using dra::testing::MappedClass;

TEST(ExtendedResourceMappingTest, ExplicitAndImplicitNamesResolve) {
  auto mapping =
      ExtendedResourceMapping::Build({MappedClass("gpu.example.com", 10, "example.com/gpu"),
                                      MappedClass("nic", 10, std::nullopt)});
  EXPECT_EQ(mapping.ClassFor("example.com/gpu"), "gpu.example.com");
  EXPECT_EQ(mapping.ClassFor("deviceclass.resource.kubernetes.io/gpu.example.com"),
            "gpu.example.com");
  EXPECT_EQ(mapping.ClassFor("deviceclass.resource.kubernetes.io/nic"), "nic");
  EXPECT_EQ(mapping.ClassFor("deviceclass.resource.kubernetes.io/absent"), std::nullopt);
  EXPECT_EQ(mapping.ClassFor("example.com/fpga"), std::nullopt);
  EXPECT_EQ(mapping.ExplicitNameOf("gpu.example.com"), "example.com/gpu");
  EXPECT_EQ(mapping.ExplicitNameOf("nic"), std::nullopt);
  EXPECT_TRUE(mapping.contested().empty());
}

TEST(ExtendedResourceMappingTest, NewestClassWinsADuplicateName) {
  auto mapping = ExtendedResourceMapping::Build({MappedClass("new-class", 200, "example.com/gpu"),
                                                 MappedClass("old-class", 100, "example.com/gpu")});
  EXPECT_EQ(mapping.ClassFor("example.com/gpu"), "new-class");
  EXPECT_EQ(mapping.ExplicitNameOf("old-class"), std::nullopt);
  ASSERT_EQ(mapping.contested().size(), 1u);
  EXPECT_EQ(mapping.contested()[0].winner, "new-class");
  EXPECT_EQ(mapping.contested()[0].losers, std::vector<std::string>{"old-class"});
  // The losing class still serves its implicit name.
  EXPECT_EQ(mapping.ClassFor("deviceclass.resource.kubernetes.io/old-class"), "old-class");
}

TEST(ExtendedResourceMappingTest, SmallerNameWinsATie) {
  auto mapping = ExtendedResourceMapping::Build({MappedClass("b", 100, "example.com/gpu"),
                                                 MappedClass("a", 100, "example.com/gpu"),
                                                 MappedClass("c", 100, "example.com/gpu")});
  EXPECT_EQ(mapping.ClassFor("example.com/gpu"), "a");
  EXPECT_EQ(mapping.contested()[0].losers, (std::vector<std::string>{"b", "c"}));
}

TEST(ExtendedResourceMappingTest, RecognisesDraExtendedResourceNames) {
  EXPECT_TRUE(ExtendedResourceMapping::IsDraExtendedResourceName("example.com/gpu"));
  EXPECT_TRUE(
      ExtendedResourceMapping::IsDraExtendedResourceName("deviceclass.resource.kubernetes.io/x"));
  EXPECT_FALSE(ExtendedResourceMapping::IsDraExtendedResourceName("cpu"));
  EXPECT_FALSE(ExtendedResourceMapping::IsDraExtendedResourceName("kubernetes.io/foo"));
}

}  // namespace
}  // namespace dra::extended
