#include <gtest/gtest.h>

#include "controller/translate/MigrationReport.h"

namespace dra::translate {
namespace {

using nlohmann::json;

extended::ExtendedResourceMapping Mapping() {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = "gpu.example.com";
  cls->extended_resource_name = "example.com/gpu";
  return extended::ExtendedResourceMapping::Build({cls});
}

json Container(const std::string& name, const json& limits) {
  return {{"name", name}, {"resources", {{"limits", limits}}}};
}

json Deployment(const std::string& name, const json& pod_spec, int replicas = 3) {
  return {{"metadata", {{"name", name}, {"namespace", "ml"}}},
          {"spec", {{"replicas", replicas}, {"template", {{"spec", pod_spec}}}}}};
}

NodeFacts Node(const std::string& name, const std::string& zone, const std::string& plugin) {
  NodeFacts node;
  node.name = name;
  node.labels = {{"zone", zone}, {"kubernetes.io/os", "linux"}};
  if (!plugin.empty()) node.allocatable = {{"example.com/gpu", plugin}};
  return node;
}

class MigrationReportTest : public ::testing::Test {
 protected:
  MigrationReportTest() {
    objects_.nodes = {Node("a", "east", "4"), Node("b", "west", "0"), Node("c", "west", "")};
  }
  std::vector<MigrationRow> Build() { return MigrationReport::Build(objects_, Mapping()); }
  ClusterObjects objects_;
};

TEST_F(MigrationReportTest, CountOnlyWorkloadStaysOnTheExtendedResource) {
  objects_.deployments.push_back(
      Deployment("web", {{"nodeSelector", {{"kubernetes.io/os", "linux"}}},
                         {"containers", json::array({Container("c", {{"example.com/gpu", "2"}}),
                                                     Container("d", {{"cpu", "1"}})})}}));
  auto rows = Build();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].ns, "ml");
  EXPECT_EQ(rows[0].replicas, 3);
  EXPECT_EQ(rows[0].per_pod, 2);
  EXPECT_EQ(rows[0].device_class, "gpu.example.com");
  EXPECT_EQ(rows[0].candidate_nodes, 3u);
  EXPECT_EQ(rows[0].device_plugin_nodes, 1u);
  EXPECT_TRUE(rows[0].pinned_by.empty());
  EXPECT_EQ(rows[0].advice, "count-only");
  EXPECT_EQ(rows[0].command, "");
}

TEST_F(MigrationReportTest, PinnedWorkloadGetsTheTranslateInvocation) {
  json affinity = {
      {"nodeAffinity",
       {{"requiredDuringSchedulingIgnoredDuringExecution",
         {{"nodeSelectorTerms",
           json::array({{{"matchExpressions", json::array({{{"key", "zone"},
                                                            {"operator", "In"},
                                                            {"values", {"west"}}}})}}})}}}}}};
  objects_.statefulsets.push_back(
      Deployment("db", {{"affinity", affinity},
                        {"containers", json::array({Container("c", {{"example.com/gpu", 1}})})}}));
  auto rows = Build();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kind, "StatefulSet");
  EXPECT_EQ(rows[0].candidate_nodes, 2u);
  EXPECT_EQ(rows[0].device_plugin_nodes, 0u);
  EXPECT_EQ(rows[0].pinned_by, std::vector<std::string>{"nodeAffinity"});
  EXPECT_EQ(rows[0].advice, "explicit-claim");
  EXPECT_EQ(rows[0].command,
            "kubectl get statefulset/db -n ml -o yaml | dra-controller translate -f -");
  EXPECT_NE(MigrationReport::Table(rows).find(rows[0].command), std::string::npos);
  EXPECT_EQ(MigrationReport::Json(rows)[0]["translate"], rows[0].command);
}

TEST_F(MigrationReportTest, UnmappedNameIsADevicePluginRow) {
  objects_.pods.push_back(
      {{"metadata", {{"name", "p"}, {"namespace", "x"}}},
       {"spec",
        {{"nodeName", "a"},
         {"containers", json::array({Container("c", {{"nvidia.com/gpu", "1"}})})}}}});
  auto rows = Build();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].advice, "device-plugin");
  EXPECT_EQ(rows[0].candidate_nodes, 1u);
  EXPECT_EQ(MigrationReport::Json(rows)[0]["deviceClass"], nullptr);
}

json BarePod(const std::string& name, const json& metadata_extra, const json& status) {
  json pod = {{"metadata", {{"name", name}, {"namespace", "x"}}},
              {"spec",
               {{"nodeName", "a"},
                {"containers", json::array({Container("c", {{"example.com/gpu", "1"}})})}}},
              {"status", status}};
  pod["metadata"].update(metadata_extra);
  return pod;
}

const json kBound = {{"phase", "Running"},
                     {"conditions", json::array({{{"type", "PodScheduled"}, {"status", "True"}}})}};

// The scheduler's binding wrote this nodeName: the Pod is not pinned.
TEST_F(MigrationReportTest, ScheduledBarePodIsNotPinned) {
  objects_.pods.push_back(BarePod("placed", json::object(), kBound));
  json managed = {
      {"managedFields",
       json::array({{{"manager", "kubectl"},
                     {"fieldsV1", {{"f:spec", {{"f:containers", json::object()}}}}}}})}};
  objects_.pods.push_back(BarePod("placed-managed", managed, kBound));
  auto rows = Build();
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_TRUE(row.pinned_by.empty()) << row.name;
    EXPECT_EQ(row.advice, "count-only") << row.name;
    EXPECT_EQ(row.command, "") << row.name;
  }
  EXPECT_EQ(MigrationReport::Table(rows).find("PINNED-BY nodeName"), std::string::npos);
}

TEST_F(MigrationReportTest, AuthorPinnedBarePodGetsTranslateWithManagedFields) {
  json managed = {{"managedFields",
                   json::array({{{"manager", "kubectl-create"},
                                 {"fieldsV1", {{"f:spec", {{"f:nodeName", json::object()}}}}}}})}};
  objects_.pods.push_back(BarePod("pinned", managed, kBound));
  auto rows = Build();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].pinned_by, std::vector<std::string>{"nodeName"});
  EXPECT_EQ(rows[0].advice, "explicit-claim");
  EXPECT_EQ(rows[0].command,
            "kubectl get pod/pinned -n x -o yaml --show-managed-fields | dra-controller "
            "translate -f -");
}

TEST_F(MigrationReportTest, PodOfAnUnlistedOwnerIsRecreatedFromIt) {
  json owned = {{"ownerReferences",
                 json::array({{{"kind", "TrainingJob"}, {"name", "bert"}, {"controller", true}}})}};
  objects_.pods.push_back(BarePod("bert-worker-0", owned, kBound));
  auto rows = Build();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kind, "Pod");
  EXPECT_EQ(rows[0].owner, "TrainingJob/bert");
  EXPECT_EQ(rows[0].advice, "recreate-from-owner");
  EXPECT_EQ(rows[0].command, "");
  EXPECT_NE(MigrationReport::Table(rows).find("  pod/bert-worker-0 -n x: TrainingJob/bert\n"),
            std::string::npos)
      << MigrationReport::Table(rows);
  EXPECT_EQ(MigrationReport::Json(rows)[0]["owner"], "TrainingJob/bert");
}

TEST_F(MigrationReportTest, InitContainersReuseAndOwnedObjectsAreSkipped) {
  json spec = {{"initContainers", json::array({Container("i", {{"example.com/gpu", "3"}})})},
               {"containers", json::array({Container("c", {{"example.com/gpu", "1"}}),
                                           Container("d", {{"example.com/gpu", "1"}})})}};
  json cron = {{"metadata", {{"name", "nightly"}, {"namespace", "b"}}},
               {"spec", {{"jobTemplate", {{"spec", {{"template", {{"spec", spec}}}}}}}}}};
  objects_.cronjobs.push_back(cron);
  json owned_job = {
      {"metadata",
       {{"name", "nightly-1"},
        {"namespace", "b"},
        {"ownerReferences", json::array({{{"kind", "CronJob"}, {"controller", true}}})}}},
      {"spec", {{"template", {{"spec", spec}}}}}};
  objects_.jobs.push_back(owned_job);
  json owned_pod = {
      {"metadata",
       {{"name", "web-1"},
        {"namespace", "b"},
        {"ownerReferences", json::array({{{"kind", "ReplicaSet"}, {"controller", true}}})}}},
      {"spec", spec}};
  objects_.pods.push_back(owned_pod);
  auto rows = Build();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kind, "CronJob");
  EXPECT_EQ(rows[0].per_pod, 3);
  EXPECT_EQ(rows[0].replicas, 1);
}

TEST(NodeFactsTest, AdmitsByNameSelectorAndAffinity) {
  NodeFacts node = NodeFacts::FromJson(
      {{"metadata", {{"name", "n1"}, {"labels", {{"gpu", "a100"}, {"rank", "5"}}}}},
       {"status", {{"allocatable", {{"example.com/gpu", "2"}}}}}});
  EXPECT_TRUE(node.DevicePluginServes("example.com/gpu"));
  EXPECT_FALSE(node.DevicePluginServes("example.com/nic"));
  EXPECT_TRUE(node.Admits(json::object()));
  EXPECT_FALSE(node.Admits({{"nodeName", "n2"}}));
  EXPECT_TRUE(node.Admits({{"nodeSelector", {{"gpu", "a100"}}}}));
  EXPECT_FALSE(node.Admits({{"nodeSelector", {{"gpu", "h100"}}}}));
  auto affinity = [](const json& requirement, const char* kind = "matchExpressions") {
    return json{
        {"affinity",
         {{"nodeAffinity",
           {{"requiredDuringSchedulingIgnoredDuringExecution",
             {{"nodeSelectorTerms", json::array({{{kind, json::array({requirement})}}})}}}}}}}};
  };
  EXPECT_TRUE(node.Admits(affinity({{"key", "rank"}, {"operator", "Gt"}, {"values", {"4"}}})));
  EXPECT_FALSE(node.Admits(affinity({{"key", "rank"}, {"operator", "Lt"}, {"values", {"4"}}})));
  EXPECT_TRUE(node.Admits(affinity({{"key", "gpu"}, {"operator", "Exists"}})));
  EXPECT_FALSE(
      node.Admits(affinity({{"key", "gpu"}, {"operator", "NotIn"}, {"values", {"a100"}}})));
  EXPECT_TRUE(node.Admits(
      affinity({{"key", "metadata.name"}, {"operator", "In"}, {"values", {"n1"}}}, "matchFields")));
}

}  // namespace
}  // namespace dra::translate
