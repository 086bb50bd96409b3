#include <gtest/gtest.h>

#include "controller/api/ResourceSlice.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

using testing::Project;

constexpr const char* kExample = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
  "metadata": { "name": "node-1-gpu.example.com-k7x2p", "generateName": "node-1-gpu.example.com-",
    "uid": "0f7c3b2a", "resourceVersion": "10577", "generation": 3,
    "creationTimestamp": "2026-07-24T09:01:00Z",
    "ownerReferences": [ { "apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "8d1e", "controller": true } ] },
  "spec": {
    "driver": "gpu.example.com",
    "pool": { "name": "node-1", "generation": 2, "resourceSliceCount": 1 },
    "nodeName": "node-1",
    "devices": [
      { "name": "gpu-0",
        "attributes": {
          "model":         { "string": "LATEST-GPU-MODEL" },
          "index":         { "int": 0 },
          "driverVersion": { "version": "1.0.0" },
          "gpu.example.com/mig-capable": { "bool": true },
          "resource.kubernetes.io/pcieRoot": { "string": "pci0000:00" } },
        "capacity": { "memory": { "value": "80Gi" } },
        "taints": [ { "key": "gpu.example.com/ecc-errors", "value": "high",
                      "effect": "NoSchedule", "timeAdded": "2026-07-24T09:30:00Z" } ] },
      { "name": "gpu-1",
        "attributes": { "model": { "string": "LATEST-GPU-MODEL" }, "index": { "int": 1 } },
        "allowMultipleAllocations": true,
        "capacity": { "memory": { "value": "80Gi",
          "requestPolicy": { "default": "8Gi", "validRange": { "min": "1Gi", "step": "1Gi" } } } } }
    ] } })";

TEST(ResourceSliceTest, ParsesReferenceExample) {
  auto slice = Project<ResourceSlice>(kExample);
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  EXPECT_EQ(slice->meta.name, "node-1-gpu.example.com-k7x2p");
  EXPECT_EQ(slice->driver, "gpu.example.com");
  EXPECT_EQ(slice->pool.name, "node-1");
  EXPECT_EQ(slice->pool.generation, 2);
  EXPECT_EQ(slice->pool.resource_slice_count, 1);
  EXPECT_EQ(slice->node_selection, ResourceSlice::NodeSelection::kNodeName);
  EXPECT_EQ(slice->node_name, "node-1");
  ASSERT_EQ(slice->devices.size(), 2u);

  const Device& gpu0 = slice->devices[0];
  EXPECT_EQ(gpu0.name, "gpu-0");
  ASSERT_EQ(gpu0.attributes.size(), 5u);
  EXPECT_EQ(*gpu0.FindAttribute("model"), AttributeValue(std::string("LATEST-GPU-MODEL")));
  EXPECT_EQ(*gpu0.FindAttribute("index"), AttributeValue(int64_t{0}));
  EXPECT_EQ(*gpu0.FindAttribute("driverVersion"), AttributeValue(VersionString{"1.0.0"}));
  EXPECT_EQ(*gpu0.FindAttribute("gpu.example.com/mig-capable"), AttributeValue(true));
  EXPECT_EQ(gpu0.FindAttribute("missing"), nullptr);
  ASSERT_NE(gpu0.FindCapacity("memory"), nullptr);
  EXPECT_EQ(*gpu0.FindCapacity("memory"), *kube::Quantity::Parse("80Gi"));
  ASSERT_EQ(gpu0.taints.size(), 1u);
  EXPECT_EQ(gpu0.taints[0].key, "gpu.example.com/ecc-errors");
  EXPECT_EQ(gpu0.taints[0].value, "high");
  EXPECT_EQ(gpu0.taints[0].effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(gpu0.taints[0].time_added, 1784885400);  // 2026-07-24T09:30:00Z
  EXPECT_FALSE(gpu0.allow_multiple_allocations);

  const Device& gpu1 = slice->devices[1];
  EXPECT_TRUE(gpu1.allow_multiple_allocations);
  EXPECT_EQ(*gpu1.FindCapacity("memory"), *kube::Quantity::Parse("80Gi"));
  EXPECT_TRUE(gpu1.taints.empty());
}

TEST(ResourceSliceTest, SplitsAttributeKeys) {
  auto slice = Project<ResourceSlice>(kExample);
  ASSERT_TRUE(slice.ok());
  auto [domain, name] = slice->SplitAttributeKey("model");
  EXPECT_EQ(domain, "gpu.example.com");
  EXPECT_EQ(name, "model");
  auto [d2, n2] = slice->SplitAttributeKey("resource.kubernetes.io/pcieRoot");
  EXPECT_EQ(d2, "resource.kubernetes.io");
  EXPECT_EQ(n2, "pcieRoot");
}

TEST(ResourceSliceTest, NodeSelectionVariants) {
  auto all = Project<ResourceSlice>(R"({"metadata":{"name":"s"},"spec":{"allNodes":true}})");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->node_selection, ResourceSlice::NodeSelection::kAllNodes);
  auto sel = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"nodeSelector":{"nodeSelectorTerms":[]}}})");
  EXPECT_EQ(sel->node_selection, ResourceSlice::NodeSelection::kNodeSelector);
  auto per = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"perDeviceNodeSelection":true,
          "devices":[{"name":"d","nodeName":"n1"},{"name":"e","allNodes":true}]}})");
  ASSERT_TRUE(per.ok());
  EXPECT_EQ(per->node_selection, ResourceSlice::NodeSelection::kPerDevice);
  EXPECT_EQ(per->devices[0].node_name, "n1");
  EXPECT_TRUE(per->devices[1].all_nodes);
  auto none = Project<ResourceSlice>(R"({"metadata":{"name":"s"}})");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->node_selection, ResourceSlice::NodeSelection::kUnspecified);
  EXPECT_TRUE(none->devices.empty());
}

TEST(ResourceSliceTest, UnknownTaintEffectIsKeptAndActsAsNone) {
  auto slice = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"devices":[{"name":"d","taints":[
          {"key":"k","effect":"Foo"},{"key":"k2"}]}]}})");
  ASSERT_TRUE(slice.ok());
  const auto& taints = slice->devices[0].taints;
  ASSERT_EQ(taints.size(), 2u);
  EXPECT_EQ(taints[0].effect, TaintEffect::kUnknown);
  EXPECT_EQ(taints[0].EffectName(), "Unknown(Foo)");
  EXPECT_EQ(taints[0].EffectiveEffect(), TaintEffect::kNone);
  EXPECT_EQ(taints[1].EffectName(), "Unknown()");
}

TEST(ResourceSliceTest, NullsListAttributesCountersAndBadValues) {
  auto slice = Project<ResourceSlice>(
      R"({"metadata":{"name":"s","labels":null},"spec":{"driver":"d.example.com","pool":null,
          "devices":[{"name":"d","attributes":{"a":{"ints":[1,2]},"b":{"int":"seven"},"c":null},
                      "capacity":{"m":{"value":"not-a-quantity"},"n":null,"o":{"value":"1"}},
                      "taints":null,"consumesCounters":[{"counterSet":"x"}]}]}})");
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  const Device& d = slice->devices[0];
  EXPECT_TRUE(d.attributes.empty());
  EXPECT_TRUE(d.has_list_attributes);
  ASSERT_EQ(d.capacity.size(), 1u);
  EXPECT_EQ(d.capacity[0].first, "o");
  ASSERT_EQ(d.consumes_counters.size(), 1u);
  EXPECT_EQ(d.consumes_counters[0].name, "x");
  EXPECT_TRUE(d.has_skipped_fields);
  EXPECT_EQ(slice->pool.generation, 0);
  auto devices_null =
      Project<ResourceSlice>(R"({"metadata":{"name":"s"},"spec":{"devices":null}})");
  ASSERT_TRUE(devices_null.ok());
  EXPECT_TRUE(devices_null->devices.empty());
}

TEST(ResourceSliceTest, WrongTypesGiveClearErrors) {
  auto generation = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"pool":{"name":"p","generation":"2"}}})");
  ASSERT_FALSE(generation.ok());
  EXPECT_NE(generation.status().message().find("spec.pool.generation"), std::string::npos);
  EXPECT_FALSE(Project<ResourceSlice>(R"([1,2])").ok());
  EXPECT_FALSE(Project<ResourceSlice>(R"({"metadata":{"name":7}})").ok());
  auto odd = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"driver":1,"nodeName":2,"devices":{"name":"x"}}})");
  ASSERT_TRUE(odd.ok());
  EXPECT_TRUE(odd->devices.empty());
}

// One bad device or field never drops the slice: a nameless device is
// skipped, an attribute of a list or unknown type and an invalid quantity are
// skipped and flagged, and each is reported with its path.
TEST(ResourceSliceTest, BadDevicesAndFieldsAreSkippedAndReported) {
  auto slice = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"devices":[
          {"name":"a","attributes":{"ok":{"int":1},"l":{"strings":["x"]},"u":{"uuid":"x"}}},
          {"attributes":{}},
          {"name":"c","capacity":{"m":{"value":"1Gi","requestPolicy":{"default":"bad"}}}}]}})");
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  ASSERT_EQ(slice->devices.size(), 2u);
  const Device& a = slice->devices[0];
  EXPECT_EQ(a.attributes.size(), 1u);
  EXPECT_TRUE(a.has_list_attributes);
  EXPECT_TRUE(a.has_skipped_fields);
  EXPECT_TRUE(slice->devices[1].capacity.empty());
  EXPECT_TRUE(slice->devices[1].has_skipped_fields);
  std::string all;
  for (const auto& w : slice->warnings) all += w + "\n";
  EXPECT_NE(all.find("spec.devices[0].attributes[l]"), std::string::npos) << all;
  EXPECT_NE(all.find("spec.devices[0].attributes[u]"), std::string::npos) << all;
  EXPECT_NE(all.find("spec.devices[1]: device has no name; skipped"), std::string::npos) << all;
  EXPECT_NE(all.find("spec.devices[2].capacity[m]"), std::string::npos) << all;
}

// k8s.io/api resource/v1 types.go (ResourceSliceSpec.SharedCounters,
// Device.ConsumesCounters): counter sets of a partitionable pool.
TEST(ResourceSliceTest, ParsesSharedCountersAndConsumedCounters) {
  auto counters = Project<ResourceSlice>(
      R"({"metadata":{"name":"s"},"spec":{"driver":"gpu.example.com",
          "pool":{"name":"p","generation":1,"resourceSliceCount":2},"nodeName":"n",
          "sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"80Gi"},
                                                        "sm":{"value":"98"}}},
                            {"counters":{}}]}})");
  ASSERT_TRUE(counters.ok()) << counters.status().ToString();
  ASSERT_EQ(counters->shared_counters.size(), 1u);
  EXPECT_EQ(counters->shared_counters[0].name, "gpu-0");
  ASSERT_NE(counters->shared_counters[0].Find("memory"), nullptr);
  EXPECT_EQ(*counters->shared_counters[0].Find("memory"), kube::Quantity::FromInt64(80LL << 30));
  ASSERT_EQ(counters->warnings.size(), 1u);
  EXPECT_NE(counters->warnings[0].find("spec.sharedCounters[1]: no name"), std::string::npos);

  auto devices = Project<ResourceSlice>(
      R"({"metadata":{"name":"d"},"spec":{"devices":[{"name":"mig-1g","allowMultipleAllocations":true,
          "consumesCounters":[{"counterSet":"gpu-0","counters":{"memory":{"value":"10Gi"}}}],
          "capacity":{"bw":{"value":"100","requestPolicy":{"default":"10",
              "validRange":{"min":"5","max":"50","step":"5"}}}}}]}})");
  ASSERT_TRUE(devices.ok());
  const Device& d = devices->devices[0];
  ASSERT_EQ(d.consumes_counters.size(), 1u);
  EXPECT_EQ(d.consumes_counters[0].name, "gpu-0");
  EXPECT_EQ(*d.consumes_counters[0].Find("memory"), kube::Quantity::FromInt64(10LL << 30));
  const CapacityPolicy* policy = d.FindCapacityPolicy("bw");
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->default_value, kube::Quantity::FromInt64(10));
  EXPECT_EQ(policy->step, kube::Quantity::FromInt64(5));
  EXPECT_EQ(policy->max, kube::Quantity::FromInt64(50));
  EXPECT_FALSE(d.has_skipped_fields);
  EXPECT_TRUE(devices->warnings.empty());
}

}  // namespace
}  // namespace dra::api
