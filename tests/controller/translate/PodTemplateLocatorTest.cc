#include <gtest/gtest.h>

#include "controller/translate/PodTemplateLocator.h"

namespace dra::translate {
namespace {

TEST(PodTemplateLocatorTest, PathsOfEveryWorkloadKind) {
  EXPECT_EQ(PodTemplateLocator::PathFor("Pod"), "spec");
  for (const char* kind :
       {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController", "Job"}) {
    EXPECT_EQ(PodTemplateLocator::PathFor(kind), "spec.template.spec") << kind;
  }
  EXPECT_EQ(PodTemplateLocator::PathFor("CronJob"), "spec.jobTemplate.spec.template.spec");
  EXPECT_EQ(PodTemplateLocator::PathFor("PodTemplate"), "template.spec");
  EXPECT_FALSE(PodTemplateLocator::PathFor("Service"));
}

TEST(PodTemplateLocatorTest, LocatesWithoutChangingTheDocument) {
  YAML::Node doc = YAML::Load(
      "kind: CronJob\nspec: {jobTemplate: {spec: {template: {spec: "
      "{containers: [{name: c}]}}}}}\n");
  auto at = PodTemplateLocator::Locate(doc);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->path, "spec.jobTemplate.spec.template.spec");
  EXPECT_EQ(at->spec["containers"][0]["name"].as<std::string>(), "c");
  EXPECT_EQ(doc["kind"].as<std::string>(), "CronJob");
  EXPECT_TRUE(doc["spec"]["jobTemplate"].IsMap());
}

TEST(PodTemplateLocatorTest, MissingTemplateIsNotFound) {
  EXPECT_FALSE(PodTemplateLocator::Locate(YAML::Load("kind: Deployment\nspec: {replicas: 1}\n")));
  EXPECT_FALSE(PodTemplateLocator::Locate(YAML::Load("kind: Deployment\nspec: [1]\n")));
  EXPECT_FALSE(PodTemplateLocator::Locate(YAML::Load("- kind: Pod\n")));
}

TEST(PodTemplateLocatorTest, FindsPodSpecsEmbeddedInCustomResources) {
  YAML::Node doc = YAML::Load(
      "kind: TrainJob\nspec:\n  roles:\n  - template: {spec: {containers: [{name: a}]}}\n"
      "  - template: {spec: {initContainers: []}}\n");
  auto found = PodTemplateLocator::FindEmbedded(doc);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].path, "spec.roles[0].template.spec");
}

}  // namespace
}  // namespace dra::translate
