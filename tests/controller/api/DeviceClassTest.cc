#include <gtest/gtest.h>

#include "controller/api/DeviceClass.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

using testing::Project;

TEST(DeviceClassTest, ParsesReferenceExample) {
  auto dc = Project<DeviceClass>(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",
    "metadata":{"name":"gpu.example.com","uid":"5b0f","resourceVersion":"10452","generation":1,
                "creationTimestamp":"2026-07-24T09:00:00Z"},
    "spec":{"selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}],
            "config":[{"opaque":{"driver":"gpu.example.com","parameters":{"kind":"GpuConfig"}}}],
            "extendedResourceName":"example.com/gpu"}})");
  ASSERT_TRUE(dc.ok()) << dc.status().ToString();
  EXPECT_EQ(dc->meta.name, "gpu.example.com");
  EXPECT_EQ(dc->creation_timestamp, 1784883600);  // 2026-07-24T09:00:00Z
  ASSERT_EQ(dc->selectors.size(), 1u);
  EXPECT_EQ(dc->selectors[0], "device.driver == \"gpu.example.com\"");
  EXPECT_EQ(dc->extended_resource_name, "example.com/gpu");
  EXPECT_EQ(dc->ImplicitExtendedResourceName(),
            "deviceclass.resource.kubernetes.io/gpu.example.com");
}

TEST(DeviceClassTest, NullsAndMissingFields) {
  auto dc = Project<DeviceClass>(
      R"({"metadata":{"name":"c","labels":null},"spec":{"selectors":null,"extendedResourceName":null}})");
  ASSERT_TRUE(dc.ok());
  EXPECT_TRUE(dc->selectors.empty());
  EXPECT_FALSE(dc->extended_resource_name.has_value());
  EXPECT_TRUE(dc->meta.labels.empty());
  EXPECT_EQ(dc->creation_timestamp, 0);
  EXPECT_TRUE(Project<DeviceClass>(R"({"metadata":{"name":"c"}})").ok());
  EXPECT_FALSE(Project<DeviceClass>(R"({"spec":{}})").ok());
}

TEST(DeviceClassTest, WrongTypesAreIgnored) {
  auto dc = Project<DeviceClass>(
      R"({"metadata":{"name":"c"},"spec":{"selectors":"x","extendedResourceName":5}})");
  ASSERT_TRUE(dc.ok());
  EXPECT_TRUE(dc->selectors.empty());
  EXPECT_FALSE(dc->extended_resource_name.has_value());
  EXPECT_TRUE(
      Project<DeviceClass>(R"({"metadata":{"name":"c"},"spec":{"selectors":[1,null,{"cel":7}]}})")
          .ok());
}

// The time a repair of kube-scheduler's mapping touched the class; anything
// but an integer (a person's own text) reads as unknown.
TEST(DeviceClassTest, ReadsTheRefreshAnnotationWhenItIsATime) {
  auto dc = Project<DeviceClass>(
      R"({"metadata":{"name":"c","annotations":{"dra-controller.dev/extended-resource-refresh":"1800000000"}}})");
  ASSERT_TRUE(dc.ok());
  EXPECT_EQ(dc->refreshed_at, 1800000000);
  for (const char* text : {"now", "", "12x", "-"}) {
    auto other = Project<DeviceClass>(
        std::string(
            R"({"metadata":{"name":"c","annotations":{"dra-controller.dev/extended-resource-refresh":")") +
        text + "\"}}}");
    ASSERT_TRUE(other.ok()) << text;
    EXPECT_FALSE(other->refreshed_at.has_value()) << text;
  }
  EXPECT_FALSE(Project<DeviceClass>(R"({"metadata":{"name":"c"}})")->refreshed_at.has_value());
}

}  // namespace
}  // namespace dra::api
