#include <gtest/gtest.h>

#include "controller/api/ResourceClaim.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

using testing::Project;

constexpr const char* kExample = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
  "metadata": { "name": "trainer-0-gpu-4xk2q", "namespace": "ml", "uid": "b1c2", "resourceVersion": "11020",
    "generateName": "trainer-0-gpu-",
    "annotations": { "resource.kubernetes.io/pod-claim-name": "gpu" },
    "ownerReferences": [ { "apiVersion": "v1", "kind": "Pod", "name": "trainer-0", "uid": "9a8b",
                           "controller": true, "blockOwnerDeletion": true } ],
    "finalizers": [ "resource.kubernetes.io/delete-protection" ],
    "creationTimestamp": "2026-07-24T10:00:00Z" },
  "spec": { "devices": {
      "requests": [
        { "name": "gpu",
          "exactly": { "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 1,
                       "selectors": [ { "cel": { "expression": "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0" } } ],
                       "tolerations": [ { "key": "gpu.example.com/ecc-errors", "operator": "Exists", "effect": "NoSchedule" } ] } },
        { "name": "nic",
          "firstAvailable": [
            { "name": "fast", "deviceClassName": "nic-400g.example.com", "allocationMode": "ExactCount", "count": 1 },
            { "name": "slow", "deviceClassName": "nic-100g.example.com", "allocationMode": "ExactCount", "count": 1 } ] } ],
      "constraints": [ { "requests": [ "gpu", "nic" ], "matchAttribute": "resource.kubernetes.io/pcieRoot" } ],
      "config": [ { "requests": [ "gpu" ], "opaque": { "driver": "gpu.example.com", "parameters": { "mode": "exclusive" } } } ] } },
  "status": {
    "allocation": {
      "devices": {
        "results": [
          { "request": "gpu", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0",
            "tolerations": [ { "key": "gpu.example.com/ecc-errors", "operator": "Exists", "effect": "NoSchedule" } ] },
          { "request": "nic/fast", "driver": "nic.example.com", "pool": "node-1", "device": "eth2" } ],
        "config": [ { "source": "FromClass", "requests": [ "gpu" ],
                      "opaque": { "driver": "gpu.example.com", "parameters": { "sharing": { "strategy": "TimeSlicing" } } } } ] },
      "nodeSelector": { "nodeSelectorTerms": [ { "matchFields": [ { "key": "metadata.name", "operator": "In", "values": [ "node-1" ] } ] } ] },
      "allocationTimestamp": "2026-07-24T10:00:02Z" },
    "reservedFor": [ { "resource": "pods", "name": "trainer-0", "uid": "9a8b" } ],
    "devices": [ { "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0",
        "conditions": [ { "type": "Ready", "status": "True", "reason": "Prepared", "message": "" } ],
        "data": { "uuid": "GPU-93d37703" } } ] } })";

TEST(ResourceClaimTest, ParsesFirstAvailableAndAllocation) {
  auto claim = Project<ResourceClaim>(kExample);
  ASSERT_TRUE(claim.ok()) << claim.status().ToString();
  EXPECT_EQ(claim->meta.Key(), "ml/trainer-0-gpu-4xk2q");
  EXPECT_FALSE(claim->extended_resource_claim);
  EXPECT_EQ(claim->pod_claim_name, "gpu");
  ASSERT_TRUE(claim->controller.has_value());
  EXPECT_EQ(claim->controller->kind, "Pod");
  EXPECT_EQ(claim->controller->name, "trainer-0");
  EXPECT_EQ(claim->controller->uid, "9a8b");

  ASSERT_EQ(claim->requests.size(), 2u);
  const auto& gpu = claim->requests[0];
  EXPECT_EQ(gpu.name, "gpu");
  ASSERT_TRUE(gpu.exactly.has_value());
  EXPECT_EQ(gpu.exactly->device_class_name, "gpu.example.com");
  EXPECT_EQ(gpu.exactly->allocation_mode, ResourceClaim::AllocationMode::kExactCount);
  EXPECT_EQ(gpu.exactly->count, 1);
  ASSERT_EQ(gpu.exactly->selectors.size(), 1u);
  ASSERT_EQ(gpu.exactly->tolerations.size(), 1u);
  EXPECT_EQ(gpu.exactly->tolerations[0].op, DeviceToleration::Operator::kExists);
  EXPECT_EQ(gpu.exactly->tolerations[0].effect, TaintEffect::kNoSchedule);
  EXPECT_TRUE(gpu.first_available.empty());

  const auto& nic = claim->requests[1];
  EXPECT_FALSE(nic.exactly.has_value());
  ASSERT_EQ(nic.first_available.size(), 2u);
  EXPECT_EQ(nic.first_available[0].name, "fast");
  EXPECT_EQ(nic.first_available[0].request.device_class_name, "nic-400g.example.com");
  EXPECT_EQ(nic.first_available[1].name, "slow");

  EXPECT_TRUE(claim->allocated);
  ASSERT_EQ(claim->results.size(), 2u);
  EXPECT_EQ(claim->results[0].device, "gpu-0");
  EXPECT_EQ(claim->results[0].tolerations.size(), 1u);
  EXPECT_EQ(claim->results[1].request, "nic/fast");
  EXPECT_EQ(claim->results[1].driver, "nic.example.com");
  EXPECT_EQ(claim->results[1].pool, "node-1");
  EXPECT_EQ(claim->allocated_node_name, "node-1");
  ASSERT_EQ(claim->reserved_for.size(), 1u);
  EXPECT_EQ(claim->reserved_for[0].resource, "pods");
  EXPECT_EQ(claim->reserved_for[0].name, "trainer-0");
  EXPECT_EQ(claim->reserved_for[0].uid, "9a8b");
  EXPECT_FALSE(claim->deletion_in_progress());
}

TEST(ResourceClaimTest, ParsesExtendedResourceClaim) {
  auto claim = Project<ResourceClaim>(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
    "metadata": { "name": "trainer-0-extended-resources-x7k2d", "generateName": "trainer-0-extended-resources-",
      "namespace": "ml", "uid": "c3d4", "resourceVersion": "13050",
      "deletionTimestamp": "2026-07-24T11:00:00Z",
      "annotations": { "resource.kubernetes.io/extended-resource-claim": "true" },
      "ownerReferences": [ { "apiVersion": "v1", "kind": "Pod", "name": "trainer-0", "uid": "9a8b", "controller": true } ],
      "finalizers": [ "resource.kubernetes.io/delete-protection" ] },
    "spec": { "devices": { "requests": [
      { "name": "container-0-request-1",
        "exactly": { "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 2 } } ] } },
    "status": {
      "allocation": {
        "devices": { "results": [
          { "request": "container-0-request-1", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0" },
          { "request": "container-0-request-1", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-1" } ] },
        "nodeSelector": { "nodeSelectorTerms": [ { "matchFields": [ { "key": "metadata.name", "operator": "In", "values": [ "node-1" ] } ] } ] } },
      "reservedFor": [ { "resource": "pods", "name": "trainer-0", "uid": "9a8b" } ] } })");
  ASSERT_TRUE(claim.ok()) << claim.status().ToString();
  EXPECT_TRUE(claim->extended_resource_claim);
  EXPECT_TRUE(claim->pod_claim_name.empty());
  EXPECT_TRUE(claim->deletion_in_progress());
  ASSERT_EQ(claim->requests.size(), 1u);
  EXPECT_EQ(claim->requests[0].exactly->count, 2);
  EXPECT_EQ(claim->results.size(), 2u);
  EXPECT_EQ(claim->allocated_node_name, "node-1");
}

TEST(ResourceClaimTest, NullRequestsAndMissingStatus) {
  auto claim = Project<ResourceClaim>(
      R"({"metadata":{"name":"c","namespace":"n","labels":null,"annotations":null,"ownerReferences":null},
          "spec":{"devices":{"requests":null}},"status":{"allocation":null,"reservedFor":null}})");
  ASSERT_TRUE(claim.ok()) << claim.status().ToString();
  EXPECT_TRUE(claim->requests.empty());
  EXPECT_FALSE(claim->allocated);
  EXPECT_FALSE(claim->controller.has_value());
  EXPECT_TRUE(claim->reserved_for.empty());
  auto bare = Project<ResourceClaim>(R"({"metadata":{"name":"c"}})");
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(bare->requests.empty());
}

TEST(ResourceClaimTest, DefaultsAndAllMode) {
  auto claim = Project<ResourceClaim>(
      R"({"metadata":{"name":"c"},"spec":{"devices":{"requests":[
          {"name":"a","exactly":{"deviceClassName":"x"}},
          {"name":"b","exactly":{"deviceClassName":"x","allocationMode":"All"}}]}}})");
  ASSERT_TRUE(claim.ok());
  EXPECT_EQ(claim->requests[0].exactly->allocation_mode,
            ResourceClaim::AllocationMode::kExactCount);
  EXPECT_EQ(claim->requests[0].exactly->count, 1);
  EXPECT_EQ(claim->requests[1].exactly->allocation_mode, ResourceClaim::AllocationMode::kAll);
}

// "Clients must refuse to handle requests with unknown modes" (k8s.io/api
// resource/v1 types.go, DeviceAllocationMode): the request is refused, the
// claim and its allocation are kept, so its devices never read as free.
TEST(ResourceClaimTest, UnknownAllocationModeMakesOnlyThatRequestUnusable) {
  auto claim = Project<ResourceClaim>(
      R"({"metadata":{"name":"c"},"spec":{"devices":{"requests":[
          {"name":"a","exactly":{"deviceClassName":"x","allocationMode":"Foo"}},
          {"name":"b","exactly":{"deviceClassName":"x"}}]}},
          "status":{"allocation":{"devices":{"results":[
              {"request":"a","driver":"d","pool":"p","device":"g"}]}}}})");
  ASSERT_TRUE(claim.ok()) << claim.status().ToString();
  const auto& bad = *claim->requests[0].exactly;
  EXPECT_EQ(bad.allocation_mode, ResourceClaim::AllocationMode::kUnknown);
  EXPECT_NE(bad.invalid_reason.str().find("unknown mode"), std::string::npos);
  EXPECT_NE(bad.invalid_reason.str().find("Foo"), std::string::npos);
  EXPECT_TRUE(claim->requests[1].exactly->invalid_reason.empty());
  ASSERT_EQ(claim->results.size(), 1u);
  EXPECT_TRUE(claim->allocated);
  auto sub = Project<ResourceClaim>(
      R"({"metadata":{"name":"c"},"spec":{"devices":{"requests":[
          {"name":"a","firstAvailable":[{"name":"s","allocationMode":"Foo"}]}]}}})");
  ASSERT_TRUE(sub.ok());
  EXPECT_NE(
      sub->requests[0].first_available[0].request.invalid_reason.str().find("firstAvailable[0]"),
      std::string::npos);
}

// allocateddevices.go (foreachAllocatedDevice) reads adminAccess, shareID and
// consumedCapacity of each result.
TEST(ResourceClaimTest, ParsesAdminAccessSharesAndCapacityRequests) {
  auto claim = Project<ResourceClaim>(
      R"({"metadata":{"name":"c"},"spec":{"devices":{"requests":[
          {"name":"a","exactly":{"deviceClassName":"x","adminAccess":true,
                                 "capacity":{"requests":{"bw":"10","mem":"oops"}}}}]}},
          "status":{"allocation":{"devices":{"results":[
              {"request":"a","driver":"d","pool":"p","device":"g","adminAccess":true},
              {"request":"a","driver":"d","pool":"p","device":"h","shareID":"u-1",
               "consumedCapacity":{"bw":"10","x":"bad"}}]}}}})");
  ASSERT_TRUE(claim.ok()) << claim.status().ToString();
  const auto& request = *claim->requests[0].exactly;
  EXPECT_TRUE(request.admin_access);
  ASSERT_EQ(request.capacity_requests.size(), 1u);
  EXPECT_EQ(request.capacity_requests[0].first, "bw");
  EXPECT_NE(request.invalid_reason.str().find("capacity.requests[mem]"), std::string::npos);
  EXPECT_TRUE(claim->results[0].admin_access);
  EXPECT_TRUE(claim->results[0].share_id.empty());
  EXPECT_FALSE(claim->results[1].admin_access);
  EXPECT_EQ(claim->results[1].share_id, "u-1");
  ASSERT_EQ(claim->results[1].consumed_capacity.size(), 1u);
  EXPECT_EQ(claim->results[1].consumed_capacity[0].second, kube::Quantity::FromInt64(10));
  ASSERT_EQ(claim->warnings.size(), 1u);
  EXPECT_NE(claim->warnings[0].find("results[1].consumedCapacity[x]"), std::string::npos);
}

TEST(ResourceClaimTest, WrongTypesGiveClearErrorsOrDefaults) {
  auto count = Project<ResourceClaim>(
      R"({"metadata":{"name":"c"},"spec":{"devices":{"requests":[
          {"name":"a","exactly":{"deviceClassName":"x","count":"2"}}]}}})");
  ASSERT_TRUE(count.ok());
  EXPECT_NE(count->requests[0].exactly->invalid_reason.str().find(
                "spec.devices.requests[0].exactly.count"),
            std::string::npos);
  auto odd = Project<ResourceClaim>(
      R"({"metadata":{"name":"c","annotations":{"resource.kubernetes.io/extended-resource-claim":true}},
          "spec":{"devices":{"requests":{"name":"a"}}},
          "status":{"allocation":{"devices":{"results":[1,"x"]},"nodeSelector":{"nodeSelectorTerms":"x"}},
                    "reservedFor":[null]}})");
  ASSERT_TRUE(odd.ok()) << odd.status().ToString();
  EXPECT_FALSE(odd->extended_resource_claim);
  EXPECT_TRUE(odd->requests.empty());
  EXPECT_EQ(odd->results.size(), 2u);
  EXPECT_TRUE(odd->allocated_node_name.empty());
}

TEST(ResourceClaimTest, TolerationMatching) {
  DeviceTaint taint{"k", "v", TaintEffect::kNoSchedule, "", 0};
  DeviceToleration exists{"", "", DeviceToleration::Operator::kExists, std::nullopt, "", {}};
  EXPECT_TRUE(exists.Tolerates(taint));
  DeviceToleration equal{"k", "v", DeviceToleration::Operator::kEqual, TaintEffect::kNoSchedule,
                         "",  {}};
  EXPECT_TRUE(equal.Tolerates(taint));
  equal.effect = TaintEffect::kNoExecute;
  EXPECT_FALSE(equal.Tolerates(taint));
}

}  // namespace
}  // namespace dra::api
