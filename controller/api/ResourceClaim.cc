#include "controller/api/ResourceClaim.h"

#include "controller/api/JsonWalk.h"
#include "controller/api/ResourceClaimProtoDecoder.h"
#include "src/base/QuoteForMessage.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::ResourceType ResourceClaim::kResource{"resource.k8s.io", "v1", "resourceclaims", true,
                                                  "ResourceClaim"};
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

// Quantities of a {name: "quantity"} map; `bad` names the first invalid one.
std::vector<std::pair<std::string, kube::Quantity>> ParseQuantities(simdjson::dom::element map,
                                                                    std::string& bad) {
  std::vector<std::pair<std::string, kube::Quantity>> out;
  out.reserve(json::Size(map));
  json::ForEachMember(map, [&](std::string_view key, simdjson::dom::element value) {
    auto quantity = json::QuantityValue(value);
    if (quantity) {
      out.emplace_back(std::string(key), *quantity);
    } else if (bad.empty()) {
      bad = key;
    }
  });
  return out;
}

ResourceClaim::AllocationMode ParseMode(simdjson::dom::element mode, const std::string& path,
                                        kube::InternedString& invalid) {
  if (mode.is_null()) return ResourceClaim::AllocationMode::kExactCount;
  std::string_view text;
  if (mode.get(text) != simdjson::SUCCESS) {
    invalid = path + ".allocationMode: expected a string";
    return ResourceClaim::AllocationMode::kUnknown;
  }
  return ResourceClaim::ModeFromText(text, path, invalid);
}

// Never fails: a field that cannot be read makes the request unusable
// (`invalid_reason`, the first such field) instead of dropping the claim.
ResourceClaim::ExactRequest ParseExactRequest(simdjson::dom::element object,
                                              const std::string& path) {
  ResourceClaim::ExactRequest request;
  request.device_class_name = StringOr(object, "deviceClassName");
  request.selectors = json::CelExpressions(Field(object, "selectors"));
  request.allocation_mode =
      ParseMode(Field(object, "allocationMode"), path, request.invalid_reason);
  auto count = json::IntField(object, "count", 1, path + ".count");
  if (count.ok()) {
    request.count = *count;
  } else if (request.invalid_reason.empty()) {
    request.invalid_reason = count.status().message();
  }
  request.tolerations = ParseTolerations(Field(object, "tolerations"));
  request.admin_access = kube::json::BoolOr(object, "adminAccess");
  std::string bad;
  request.capacity_requests = ParseQuantities(Field(Field(object, "capacity"), "requests"), bad);
  if (!bad.empty() && request.invalid_reason.empty()) {
    request.invalid_reason = path + ".capacity.requests[" + bad + "]: invalid quantity";
  }
  return request;
}

ResourceClaim::Request ParseRequest(simdjson::dom::element object, const std::string& path) {
  ResourceClaim::Request request;
  request.name = StringOr(object, "name");
  simdjson::dom::element exactly = Field(object, "exactly");
  if (kube::json::IsObject(exactly))
    request.exactly = ParseExactRequest(exactly, path + ".exactly");
  simdjson::dom::element first = Field(object, "firstAvailable");
  request.first_available.reserve(json::Size(first));
  json::ForEachElement(first, [&](simdjson::dom::element sub) {
    std::string sub_path =
        path + ".firstAvailable[" + std::to_string(request.first_available.size()) + "]";
    request.first_available.push_back(
        {std::string(StringOr(sub, "name")), ParseExactRequest(sub, sub_path)});
  });
  return request;
}

ResourceClaim::AllocationResult ParseResult(simdjson::dom::element r, const std::string& path,
                                            kube::CompactVector<std::string>& warnings) {
  ResourceClaim::AllocationResult result;
  result.request = StringOr(r, "request");
  result.driver = StringOr(r, "driver");
  result.pool = StringOr(r, "pool");
  result.device = StringOr(r, "device");
  result.tolerations = ParseTolerations(Field(r, "tolerations"));
  result.admin_access = kube::json::BoolOr(r, "adminAccess");
  result.share_id = StringOr(r, "shareID");
  std::string bad;
  result.consumed_capacity = ParseQuantities(Field(r, "consumedCapacity"), bad);
  if (!bad.empty()) warnings.push_back(path + ".consumedCapacity[" + bad + "]: invalid; skipped");
  return result;
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

ResourceClaim::AllocationMode ResourceClaim::ModeFromText(std::string_view text,
                                                          const std::string& path,
                                                          kube::InternedString& invalid_reason) {
  if (text == "All") return AllocationMode::kAll;
  if (text == "ExactCount" || text.empty()) return AllocationMode::kExactCount;
  invalid_reason = path + ".allocationMode: unknown mode " +
                   std::string(kube::QuoteForMessage(text)) +
                   " (clients must refuse requests with unknown modes)";
  return AllocationMode::kUnknown;
}

void ResourceClaim::ReadAnnotation(std::string_view key, std::string_view value) {
  if (key == "resource.kubernetes.io/extended-resource-claim") {
    extended_resource_claim = value == "true";
  } else if (key == "resource.kubernetes.io/pod-claim-name") {
    pod_claim_name = value;
  }
}

kube::Result<ResourceClaim> ResourceClaim::FromProto(std::string_view object) {
  return ResourceClaimProtoDecoder::Decode(object);
}

kube::Result<ResourceClaim> ResourceClaim::FromJson(simdjson::dom::element object) {
  ResourceClaim claim;
  KUBE_ASSIGN_OR_RETURN(claim.meta,
                        kube::ObjectMeta::FromObject(object, kube::ObjectMeta::Labels::kSkip));
  simdjson::dom::element metadata = Field(object, "metadata");
  json::ForEachMember(Field(metadata, "annotations"),
                      [&](std::string_view key, simdjson::dom::element value) {
                        std::string_view text;
                        if (value.get(text) == simdjson::SUCCESS) claim.ReadAnnotation(key, text);
                      });
  json::ForEachElement(Field(metadata, "ownerReferences"), [&](simdjson::dom::element ref) {
    if (claim.controller.has_value() || !kube::json::BoolOr(ref, "controller")) return;
    claim.controller =
        OwnerReference{std::string(StringOr(ref, "kind")), std::string(StringOr(ref, "name")),
                       std::string(StringOr(ref, "uid"))};
  });

  simdjson::dom::element requests = Field(Field(Field(object, "spec"), "devices"), "requests");
  claim.requests.reserve(json::Size(requests));
  json::ForEachElement(requests, [&](simdjson::dom::element r) {
    claim.requests.push_back(
        ParseRequest(r, "spec.devices.requests[" + std::to_string(claim.requests.size()) + "]"));
  });

  simdjson::dom::element claim_status = Field(object, "status");
  simdjson::dom::element allocation = Field(claim_status, "allocation");
  claim.allocated = kube::json::IsObject(allocation);
  simdjson::dom::element results = Field(Field(allocation, "devices"), "results");
  claim.results.reserve(json::Size(results));
  json::ForEachElement(results, [&](simdjson::dom::element r) {
    std::string path =
        "status.allocation.devices.results[" + std::to_string(claim.results.size()) + "]";
    claim.results.push_back(ParseResult(r, path, claim.warnings));
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
