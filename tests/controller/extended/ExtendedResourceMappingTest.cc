#include <gtest/gtest.h>

#include "controller/extended/ExtendedResourceMapping.h"

namespace dra::extended {
namespace {

std::shared_ptr<const api::DeviceClass> Class(std::string name, int64_t created,
                                              std::optional<std::string> resource) {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = std::move(name);
  c->creation_timestamp = created;
  c->extended_resource_name = std::move(resource);
  return c;
}

TEST(ExtendedResourceMappingTest, ExplicitAndImplicitNamesResolve) {
  auto mapping = ExtendedResourceMapping::Build(
      {Class("gpu.example.com", 10, "example.com/gpu"), Class("nic", 10, std::nullopt)});
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
  auto mapping = ExtendedResourceMapping::Build(
      {Class("new-class", 200, "example.com/gpu"), Class("old-class", 100, "example.com/gpu")});
  EXPECT_EQ(mapping.ClassFor("example.com/gpu"), "new-class");
  EXPECT_EQ(mapping.ExplicitNameOf("old-class"), std::nullopt);
  ASSERT_EQ(mapping.contested().size(), 1u);
  EXPECT_EQ(mapping.contested()[0].winner, "new-class");
  EXPECT_EQ(mapping.contested()[0].losers, std::vector<std::string>{"old-class"});
  // The losing class still serves its implicit name.
  EXPECT_EQ(mapping.ClassFor("deviceclass.resource.kubernetes.io/old-class"), "old-class");
}

TEST(ExtendedResourceMappingTest, SmallerNameWinsATie) {
  auto mapping = ExtendedResourceMapping::Build({Class("b", 100, "example.com/gpu"),
                                                 Class("a", 100, "example.com/gpu"),
                                                 Class("c", 100, "example.com/gpu")});
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
