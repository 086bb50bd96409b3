#include <gtest/gtest.h>

#include <string>

#include "controller/api/ResourceClaimProtoDecoder.h"
#include "tests/controller/api/ProjectionTestUtil.h"
#include "tests/controller/api/ResourceClaimEquality.h"
#include "tests/support/ProtoWriter.h"

namespace dra::api {
namespace {

using kube::testing::ProtoWriter;
using testing::ExpectSameClaim;
using testing::Project;

// One claim written twice, as JSON and as the protobuf kube-apiserver sends
// (resource/v1 generated.proto): both projections must agree.
constexpr const char* kClaimJson = R"({"metadata":{"name":"c","namespace":"ml","uid":"u-2",
  "resourceVersion":"31","creationTimestamp":"1970-01-01T00:00:10Z",
  "annotations":{"resource.kubernetes.io/extended-resource-claim":"true",
                 "resource.kubernetes.io/pod-claim-name":"gpu"},
  "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"other","uid":"o-0"},
                     {"apiVersion":"v1","kind":"Pod","name":"p","uid":"p-1","controller":true}]},
 "spec":{"devices":{"requests":[
   {"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","allocationMode":"ExactCount",
     "count":2,"selectors":[{"cel":{"expression":"device.driver == 'x'"}}],
     "tolerations":[{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":30}],
     "capacity":{"requests":{"memory":"8Gi"}}}},
   {"name":"any","firstAvailable":[
     {"name":"big","deviceClassName":"big.example.com","allocationMode":"All"},
     {"name":"odd","deviceClassName":"odd.example.com","allocationMode":"Sometimes","count":1}]}]}},
 "status":{"allocation":{"devices":{"results":[
    {"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-0",
     "shareID":"s-1","consumedCapacity":{"memory":"8Gi","bad":"x"},
     "tolerations":[{"key":"k","value":"v","effect":"Evict"}]},
    {"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-1","adminAccess":true}]},
   "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[
     {"key":"metadata.name","operator":"In","values":["node-1"]}]}]}},
  "reservedFor":[{"resource":"pods","name":"p","uid":"p-1"}]}})";

ProtoWriter Quantity(uint32_t field, const char* name, const char* value, ProtoWriter into) {
  into.Message(field, ProtoWriter().Bytes(1, name).Message(2, ProtoWriter().Bytes(1, value)));
  return into;
}

std::string ClaimProto() {
  ProtoWriter meta;
  meta.Bytes(1, "c")
      .Bytes(3, "ml")
      .Bytes(5, "u-2")
      .Bytes(6, "31")
      .Varint(7, 0)
      .Message(8, ProtoWriter().Varint(1, 10))
      .StringEntry(12, "resource.kubernetes.io/extended-resource-claim", "true")
      .StringEntry(12, "resource.kubernetes.io/pod-claim-name", "gpu")
      .Message(13, ProtoWriter().Bytes(5, "v1").Bytes(1, "Pod").Bytes(3, "other").Bytes(4, "o-0"))
      .Message(
          13,
          ProtoWriter().Bytes(5, "v1").Bytes(1, "Pod").Bytes(3, "p").Bytes(4, "p-1").Varint(6, 1));
  ProtoWriter exactly;
  exactly.Bytes(1, "gpu.example.com")
      .Message(2, ProtoWriter().Message(1, ProtoWriter().Bytes(1, "device.driver == 'x'")))
      .Bytes(3, "ExactCount")
      .Varint(4, 2)
      .Message(6,
               ProtoWriter().Bytes(1, "k").Bytes(2, "Exists").Bytes(4, "NoExecute").Varint(5, 30))
      .Message(7, Quantity(1, "memory", "8Gi", ProtoWriter()));
  ProtoWriter any;
  any.Bytes(1, "any")
      .Message(
          3, ProtoWriter().Bytes(1, "big").Bytes(2, "big.example.com").Bytes(4, "All").Varint(5, 0))
      .Message(3, ProtoWriter()
                      .Bytes(1, "odd")
                      .Bytes(2, "odd.example.com")
                      .Bytes(4, "Sometimes")
                      .Varint(5, 1));
  ProtoWriter spec;
  spec.Message(
      1,
      ProtoWriter().Message(1, ProtoWriter().Bytes(1, "gpu").Message(2, exactly)).Message(1, any));
  ProtoWriter first_result;
  first_result.Bytes(1, "gpu")
      .Bytes(2, "gpu.example.com")
      .Bytes(3, "node-1")
      .Bytes(4, "gpu-0")
      .Message(6, ProtoWriter().Bytes(1, "k").Bytes(3, "v").Bytes(4, "Evict"))
      .Bytes(9, "s-1");
  first_result = Quantity(10, "bad", "x", Quantity(10, "memory", "8Gi", first_result));
  ProtoWriter second_result;
  second_result.Bytes(1, "gpu")
      .Bytes(2, "gpu.example.com")
      .Bytes(3, "node-1")
      .Bytes(4, "gpu-1")
      .Varint(5, 1);
  ProtoWriter selector;
  selector.Message(
      1, ProtoWriter().Message(
             2, ProtoWriter().Bytes(1, "metadata.name").Bytes(2, "In").Bytes(3, "node-1")));
  ProtoWriter status;
  status
      .Message(1, ProtoWriter()
                      .Message(1, ProtoWriter().Message(1, first_result).Message(1, second_result))
                      .Message(3, selector)
                      .Message(5, ProtoWriter().Varint(1, 20)))
      .Message(2, ProtoWriter().Bytes(1, "").Bytes(3, "pods").Bytes(4, "p").Bytes(5, "p-1"));
  return ProtoWriter().Message(1, meta).Message(2, spec).Message(3, status).str();
}

TEST(ResourceClaimProtoDecoderTest, AgreesWithTheJsonProjection) {
  auto json = Project<ResourceClaim>(kClaimJson);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto proto = ResourceClaim::FromProto(ClaimProto());
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  ExpectSameClaim(*json, *proto);
  // And the agreement is about something: the fields are really there.
  EXPECT_TRUE(proto->extended_resource_claim);
  EXPECT_EQ(proto->pod_claim_name, "gpu");
  ASSERT_TRUE(proto->controller.has_value());
  EXPECT_EQ(proto->controller->name, "p");
  ASSERT_EQ(proto->requests.size(), 2u);
  EXPECT_EQ(proto->requests[0].exactly->count, 2);
  EXPECT_EQ(proto->requests[1].first_available[0].request.count, 1);
  EXPECT_NE(proto->requests[1].first_available[1].request.invalid_reason, "");
  ASSERT_EQ(proto->results.size(), 2u);
  EXPECT_TRUE(proto->results[1].admin_access);
  EXPECT_EQ(proto->allocated_node_name, "node-1");
  ASSERT_EQ(proto->warnings.size(), 1u);
  ASSERT_EQ(proto->reserved_for.size(), 1u);
}

TEST(ResourceClaimProtoDecoderTest, TruncationsAreErrorsNotCrashes) {
  std::string claim = ClaimProto();
  int valid = 0;
  for (size_t cut = 0; cut < claim.size(); ++cut) {
    if (ResourceClaim::FromProto(std::string_view(claim).substr(0, cut)).ok()) ++valid;
  }
  EXPECT_EQ(valid, 2);  // after metadata, after spec
}

}  // namespace
}  // namespace dra::api
