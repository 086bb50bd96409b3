#include <gtest/gtest.h>

#include "controller/api/PodView.h"
#include "tests/controller/api/ProjectionTestUtil.h"
#include "tests/support/FakeObjects.h"

namespace dra::api {
namespace {

using testing::Project;

TEST(PodViewTest, ParsesFakePod) {
  auto pod = Project<PodView>(dra::testing::FakePodJson(7));
  ASSERT_TRUE(pod.ok()) << pod.status().ToString();
  EXPECT_EQ(pod->meta.Key(), "ml/trainer-7");
  EXPECT_EQ(pod->node_name, "node-7");
  EXPECT_EQ(pod->phase, "Running");
  // The cache keeps no Pod labels: no reader looks at them.
  EXPECT_TRUE(pod->meta.labels.empty());
  ASSERT_EQ(pod->containers.size(), 3u);
  EXPECT_EQ(pod->containers[0].name, "fetch");
  EXPECT_TRUE(pod->containers[0].is_init);
  EXPECT_FALSE(pod->containers[0].is_sidecar);
  EXPECT_TRUE(pod->containers[0].resources.empty());
  EXPECT_EQ(pod->containers[1].name, "main");
  EXPECT_FALSE(pod->containers[1].is_init);
  ASSERT_EQ(pod->containers[1].resources.size(), 1u);
  EXPECT_EQ(pod->containers[1].resources[0].name, "example.com/gpu");
  EXPECT_EQ(pod->containers[1].resources[0].request, kube::Quantity::FromInt64(2));
  EXPECT_EQ(pod->containers[1].resources[0].limit, kube::Quantity::FromInt64(2));
  EXPECT_EQ(pod->containers[2].name, "sidecar");
  ASSERT_TRUE(pod->extended_resource_claim_status.has_value());
  EXPECT_EQ(pod->extended_resource_claim_status->resource_claim_name,
            "trainer-7-extended-resources-x7k2d");
  ASSERT_EQ(pod->extended_resource_claim_status->request_mappings.size(), 1u);
  const auto& mapping = pod->extended_resource_claim_status->request_mappings[0];
  EXPECT_EQ(mapping.container_name, "main");
  EXPECT_EQ(mapping.resource_name, "example.com/gpu");
  EXPECT_EQ(mapping.request_name, "container-1-request-1");
  // PodScheduled is True: nothing to explain, so nothing is kept.
  EXPECT_EQ(pod->scheduled, nullptr);
  EXPECT_FALSE(pod->deletion_in_progress());
}

TEST(PodViewTest, ParsesReferenceFragment) {
  auto pod = Project<PodView>(R"({"metadata":{"name":"trainer-0","namespace":"ml"},
    "status": { "extendedResourceClaimStatus": {
      "requestMappings": [ { "containerName": "main", "resourceName": "example.com/gpu", "requestName": "container-0-request-1" } ],
      "resourceClaimName": "trainer-0-extended-resources-x7k2d" } } })");
  ASSERT_TRUE(pod.ok());
  ASSERT_TRUE(pod->extended_resource_claim_status.has_value());
  EXPECT_EQ(pod->extended_resource_claim_status->request_mappings[0].request_name,
            "container-0-request-1");
  EXPECT_TRUE(pod->containers.empty());
}

TEST(PodViewTest, SidecarsLimitsOnlyClaimsAndPendingReason) {
  auto pod = Project<PodView>(R"({"metadata":{"name":"p","namespace":"n",
      "deletionTimestamp":"2026-07-24T11:00:00Z"},
    "spec":{"schedulerName":"kai","resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"t"}],
      "initContainers":[{"name":"init","resources":{"limits":{"example.com/gpu":"1"}}},
                        {"name":"side","restartPolicy":"Always","resources":{"requests":{"example.com/nic":"1"},
                                                                            "limits":{"example.com/nic":"2"}}}],
      "containers":[{"name":"main","resources":{"requests":{"cpu":"1","example.com/gpu":"500m"}}}]},
    "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
      "reason":"Unschedulable","message":"0/3 nodes are available: 3 cannot fit resource."}]}})");
  ASSERT_TRUE(pod.ok()) << pod.status().ToString();
  EXPECT_TRUE(pod->deletion_in_progress());
  ASSERT_EQ(pod->containers.size(), 3u);
  const auto& init = pod->containers[0];
  EXPECT_TRUE(init.is_init);
  EXPECT_FALSE(init.is_sidecar);
  ASSERT_EQ(init.resources.size(), 1u);
  EXPECT_EQ(init.resources[0].request, kube::Quantity::FromInt64(1));  // from limits
  EXPECT_FALSE(init.resources[0].has_request);
  const auto& side = pod->containers[1];
  EXPECT_TRUE(side.is_sidecar);
  EXPECT_EQ(side.resources[0].request, kube::Quantity::FromInt64(1));
  EXPECT_EQ(side.resources[0].limit, kube::Quantity::FromInt64(2));
  const auto& main = pod->containers[2];
  ASSERT_EQ(main.resources.size(), 1u);  // cpu is not an extended resource
  EXPECT_EQ(main.resources[0].request, *kube::Quantity::Parse("500m"));
  EXPECT_FALSE(pod->extended_resource_claim_status.has_value());
  ASSERT_NE(pod->scheduled, nullptr);
  EXPECT_EQ(pod->scheduled->status, "False");
  EXPECT_EQ(pod->scheduled->reason, "Unschedulable");
  EXPECT_EQ(pod->scheduled->message, "0/3 nodes are available: 3 cannot fit resource.");
}

// Regression (PodViewFuzz corpus: duplicate-keys.json): a repeated key under
// limits kept the first value as the request and the last as the limit, and
// one under requests made two resources of one name. The last one counts.
TEST(PodViewTest, RepeatedResourceKeysKeepTheLastValue) {
  auto pod = Project<PodView>(R"({"metadata":{"name":"p"},"spec":{"containers":[
      {"name":"a","resources":{"limits":{"example.com/gpu":"1","example.com/gpu":"3"}}},
      {"name":"b","resources":{"requests":{"example.com/gpu":"1","example.com/gpu":"2"},
                               "limits":{"example.com/gpu":"4"}}}]}})");
  ASSERT_TRUE(pod.ok());
  ASSERT_EQ(pod->containers.size(), 2u);
  ASSERT_EQ(pod->containers[0].resources.size(), 1u);
  EXPECT_EQ(pod->containers[0].resources[0].request, kube::Quantity::FromInt64(3));
  EXPECT_EQ(pod->containers[0].resources[0].limit, kube::Quantity::FromInt64(3));
  ASSERT_EQ(pod->containers[1].resources.size(), 1u);
  EXPECT_EQ(pod->containers[1].resources[0].request, kube::Quantity::FromInt64(2));
  EXPECT_EQ(pod->containers[1].resources[0].limit, kube::Quantity::FromInt64(4));
}

TEST(PodViewTest, NullsMissingAndWrongTypes) {
  auto pod = Project<PodView>(
      R"({"metadata":{"name":"p","labels":null,"ownerReferences":null},
          "spec":{"containers":null,"initContainers":null,"resourceClaims":null},
          "status":{"extendedResourceClaimStatus":null,"conditions":null}})");
  ASSERT_TRUE(pod.ok());
  EXPECT_TRUE(pod->containers.empty());
  EXPECT_FALSE(pod->extended_resource_claim_status.has_value());
  EXPECT_EQ(pod->scheduled, nullptr);
  auto odd = Project<PodView>(
      R"({"metadata":{"name":"p"},"spec":{"nodeName":5,"containers":[
          {"name":"c","resources":{"requests":{"a.com/x":2,"b.com/y":"bad","c.com/z":null},"limits":"x"}},
          7]},
          "status":{"extendedResourceClaimStatus":{"requestMappings":"x"}}})");
  ASSERT_TRUE(odd.ok());
  EXPECT_TRUE(odd->node_name.empty());
  ASSERT_EQ(odd->containers.size(), 2u);
  EXPECT_TRUE(odd->containers[0].resources.empty());
  ASSERT_TRUE(odd->extended_resource_claim_status.has_value());
  EXPECT_TRUE(odd->extended_resource_claim_status->request_mappings.empty());
  EXPECT_FALSE(Project<PodView>(R"({"metadata":{}})").ok());
}

TEST(PodViewTest, OnlyPodsWithExtendedResourcesOrImplicitClaimsAreWorthCaching) {
  auto plain = Project<PodView>(R"({"metadata":{"name":"web"},"spec":{"initContainers":[
      {"name":"init","resources":{"limits":{"cpu":"1","hugepages-2Mi":"2Mi"}}}],
      "containers":[{"name":"main","resources":{"requests":{"memory":"1Gi"}}}]}})");
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_FALSE(plain->RequestsExtendedResources());

  auto in_init = Project<PodView>(R"({"metadata":{"name":"p"},"spec":{"initContainers":[
      {"name":"init","resources":{"limits":{"example.com/gpu":"1"}}}],"containers":[{"name":"m"}]}})");
  ASSERT_TRUE(in_init.ok());
  EXPECT_TRUE(in_init->RequestsExtendedResources()) << "init containers count too";

  auto by_class = Project<PodView>(R"({"metadata":{"name":"p"},"spec":{"containers":[
      {"name":"m","resources":{"requests":{"deviceclass.resource.kubernetes.io/gpu":"1"}}}]}})");
  ASSERT_TRUE(by_class.ok());
  EXPECT_TRUE(by_class->RequestsExtendedResources());

  auto claimed = Project<PodView>(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"m"}]},
      "status":{"extendedResourceClaimStatus":{"resourceClaimName":"p-extended-resources-abc",
      "requestMappings":[]}}})");
  ASSERT_TRUE(claimed.ok());
  EXPECT_TRUE(claimed->RequestsExtendedResources())
      << "a recorded implicit claim keeps the Pod, so the leak audit can see its owner";
}

}  // namespace
}  // namespace dra::api
