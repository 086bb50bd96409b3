#include "controller/api/ResourceClaim.h"

#include "controller/api/JsonWalk.h"
#include "src/base/QuoteForMessage.h"
#include "src/cache/JsonFields.h"

namespace dra::api {
namespace {

using kube::json::Field;
using kube::json::StringOr;

std::vector<DeviceToleration> ParseTolerations(simdjson::dom::element array) {
  std::vector<DeviceToleration> tolerations;
  tolerations.reserve(json::Size(array));
  json::ForEachElement(array, [&](simdjson::dom::element t) {
    auto toleration = DeviceToleration::FromJson(t);
    if (toleration.ok()) tolerations.push_back(std::move(*toleration));
  });
  return tolerations;
}

kube::Result<ResourceClaim::ExactRequest> ParseExactRequest(simdjson::dom::element object,
                                                            const std::string& path) {
  ResourceClaim::ExactRequest request;
  request.device_class_name = StringOr(object, "deviceClassName");
  request.selectors = json::CelExpressions(Field(object, "selectors"));
  simdjson::dom::element mode = Field(object, "allocationMode");
  if (!mode.is_null()) {
    std::string_view text;
    if (mode.get(text) != simdjson::SUCCESS) {
      return kube::Status(kube::StatusCode::kParseError,
                          path + ".allocationMode: expected a string");
    }
    if (text == "All") {
      request.allocation_mode = ResourceClaim::AllocationMode::kAll;
    } else if (text != "ExactCount" && !text.empty()) {
      return kube::Status(kube::StatusCode::kParseError,
                          path + ".allocationMode: unknown mode " +
                              std::string(kube::QuoteForMessage(text)) +
                              " (clients must refuse requests with unknown modes)");
    }
  }
  KUBE_ASSIGN_OR_RETURN(request.count, json::IntField(object, "count", 1, path + ".count"));
  request.tolerations = ParseTolerations(Field(object, "tolerations"));
  return request;
}

kube::Result<ResourceClaim::Request> ParseRequest(simdjson::dom::element object,
                                                  const std::string& path) {
  ResourceClaim::Request request;
  request.name = StringOr(object, "name");
  simdjson::dom::element exactly = Field(object, "exactly");
  if (kube::json::IsObject(exactly)) {
    ResourceClaim::ExactRequest exact;
    KUBE_ASSIGN_OR_RETURN(exact, ParseExactRequest(exactly, path + ".exactly"));
    request.exactly = std::move(exact);
  }
  simdjson::dom::element first = Field(object, "firstAvailable");
  request.first_available.reserve(json::Size(first));
  kube::Status status;
  json::ForEachElement(first, [&](simdjson::dom::element sub) {
    if (!status.ok()) return;
    std::string sub_path =
        path + ".firstAvailable[" + std::to_string(request.first_available.size()) + "]";
    auto exact = ParseExactRequest(sub, sub_path);
    if (!exact.ok()) {
      status = exact.status();
      return;
    }
    request.first_available.push_back({std::string(StringOr(sub, "name")), std::move(*exact)});
  });
  if (!status.ok()) return status;
  return request;
}

// "node-1" from {"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",
// "operator":"In","values":["node-1"]}]}]}; empty for any other shape.
std::string NodeLocalName(simdjson::dom::element selector) {
  simdjson::dom::element terms = Field(selector, "nodeSelectorTerms");
  if (json::Size(terms) != 1) return "";
  simdjson::dom::element term = kube::json::Null();
  json::ForEachElement(terms, [&](simdjson::dom::element t) { term = t; });
  if (json::Size(Field(term, "matchExpressions")) != 0) return "";
  simdjson::dom::element fields = Field(term, "matchFields");
  if (json::Size(fields) != 1) return "";
  std::string name;
  json::ForEachElement(fields, [&](simdjson::dom::element field) {
    simdjson::dom::element values = Field(field, "values");
    if (StringOr(field, "key") != "metadata.name" || StringOr(field, "operator") != "In" ||
        json::Size(values) != 1)
      return;
    json::ForEachElement(values, [&](simdjson::dom::element v) {
      std::string_view s;
      if (v.get(s) == simdjson::SUCCESS) name = s;
    });
  });
  return name;
}

}  // namespace

kube::Result<ResourceClaim> ResourceClaim::FromJson(simdjson::dom::element object) {
  ResourceClaim claim;
  KUBE_ASSIGN_OR_RETURN(claim.meta, kube::ObjectMeta::FromObject(object));
  simdjson::dom::element metadata = Field(object, "metadata");
  simdjson::dom::element annotations = Field(metadata, "annotations");
  claim.extended_resource_claim =
      StringOr(annotations, "resource.kubernetes.io/extended-resource-claim") == "true";
  claim.pod_claim_name = StringOr(annotations, "resource.kubernetes.io/pod-claim-name");
  json::ForEachElement(Field(metadata, "ownerReferences"), [&](simdjson::dom::element ref) {
    if (claim.controller.has_value() || !kube::json::BoolOr(ref, "controller")) return;
    claim.controller =
        OwnerReference{std::string(StringOr(ref, "kind")), std::string(StringOr(ref, "name")),
                       std::string(StringOr(ref, "uid"))};
  });

  simdjson::dom::element requests = Field(Field(Field(object, "spec"), "devices"), "requests");
  claim.requests.reserve(json::Size(requests));
  kube::Status status;
  json::ForEachElement(requests, [&](simdjson::dom::element r) {
    if (!status.ok()) return;
    auto request =
        ParseRequest(r, "spec.devices.requests[" + std::to_string(claim.requests.size()) + "]");
    if (!request.ok()) {
      status = request.status();
      return;
    }
    claim.requests.push_back(std::move(*request));
  });
  if (!status.ok()) return status;

  simdjson::dom::element claim_status = Field(object, "status");
  simdjson::dom::element allocation = Field(claim_status, "allocation");
  claim.allocated = kube::json::IsObject(allocation);
  simdjson::dom::element results = Field(Field(allocation, "devices"), "results");
  claim.results.reserve(json::Size(results));
  json::ForEachElement(results, [&](simdjson::dom::element r) {
    claim.results.push_back({std::string(StringOr(r, "request")),
                             std::string(StringOr(r, "driver")), std::string(StringOr(r, "pool")),
                             std::string(StringOr(r, "device")),
                             ParseTolerations(Field(r, "tolerations"))});
  });
  claim.allocated_node_name = NodeLocalName(Field(allocation, "nodeSelector"));

  simdjson::dom::element reserved = Field(claim_status, "reservedFor");
  claim.reserved_for.reserve(json::Size(reserved));
  json::ForEachElement(reserved, [&](simdjson::dom::element c) {
    claim.reserved_for.push_back({std::string(StringOr(c, "resource")),
                                  std::string(StringOr(c, "name")),
                                  std::string(StringOr(c, "uid"))});
  });
  return claim;
}

}  // namespace dra::api
