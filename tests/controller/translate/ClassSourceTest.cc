#include <gtest/gtest.h>

#include "controller/translate/ClassSource.h"

namespace dra::translate {
namespace {

TEST(ClassSourceTest, ReadsDocumentsAndListsYamlOrJson) {
  auto classes = ClassSource::FromText(
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: a}\n"
      "spec: {extendedResourceName: example.com/gpu}\n---\nkind: ConfigMap\n"
      "metadata: {name: ignored}\n---\n"
      "{\"kind\": \"DeviceClassList\", \"items\": [{\"metadata\": {\"name\": \"b\"}}]}\n");
  ASSERT_TRUE(classes.ok()) << classes.status().ToString();
  ASSERT_EQ(classes->size(), 2u);
  EXPECT_EQ((*classes)[0]->meta.name, "a");
  EXPECT_EQ((*classes)[0]->extended_resource_name, "example.com/gpu");
  EXPECT_EQ((*classes)[1]->meta.name, "b");
}

TEST(ClassSourceTest, DuplicatesFollowTheSchedulerRules) {
  auto classes = ClassSource::FromText(
      "kind: DeviceClass\nmetadata: {name: b, creationTimestamp: \"2026-01-01T00:00:00Z\"}\n"
      "spec: {extendedResourceName: example.com/gpu}\n---\n"
      "kind: DeviceClass\nmetadata: {name: a, creationTimestamp: \"2026-01-01T00:00:00Z\"}\n"
      "spec: {extendedResourceName: example.com/gpu}\n---\n"
      "kind: DeviceClass\nmetadata: {name: c, creationTimestamp: \"2025-01-01T00:00:00Z\"}\n"
      "spec: {extendedResourceName: example.com/gpu}\n");
  ASSERT_TRUE(classes.ok());
  auto mapping = extended::ExtendedResourceMapping::Build(*classes);
  EXPECT_EQ(mapping.ClassFor("example.com/gpu"), "a");
  EXPECT_EQ(mapping.ClassFor("deviceclass.resource.kubernetes.io/c"), "c");
}

TEST(ClassSourceTest, BrokenFileIsAnError) {
  EXPECT_FALSE(ClassSource::FromText("kind: DeviceClass\nmetadata: [\n").ok());
}

}  // namespace
}  // namespace dra::translate
