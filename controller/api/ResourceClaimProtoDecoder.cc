#include "controller/api/ResourceClaimProtoDecoder.h"

#include <string>
#include <vector>

#include "src/proto/ProtoFields.h"
#include "src/proto/ProtoReader.h"

namespace dra::api {
namespace {

using kube::ProtoReader;
using kube::Status;

// Field numbers from k8s.io/api resource/v1, core/v1 and meta/v1 generated.proto.
namespace claim {
constexpr uint32_t kSpec = 2;
constexpr uint32_t kStatus = 3;
constexpr uint32_t kSpecDevices = 1;
constexpr uint32_t kDevicesRequests = 1;
}  // namespace claim
namespace meta {
constexpr uint32_t kOwnerReferences = 13;
constexpr uint32_t kOwnerKind = 1;
constexpr uint32_t kOwnerName = 3;
constexpr uint32_t kOwnerUid = 4;
constexpr uint32_t kOwnerController = 6;
}  // namespace meta
namespace request {
constexpr uint32_t kName = 1;
constexpr uint32_t kExactly = 2;
constexpr uint32_t kFirstAvailable = 3;
}  // namespace request
// ExactDeviceRequest and DeviceSubRequest hold the same fields under
// different numbers (a subrequest starts with its name and has no adminAccess).
struct ExactFields {
  uint32_t device_class_name, selectors, allocation_mode, count, admin_access, tolerations,
      capacity;
};
constexpr ExactFields kExactly{1, 2, 3, 4, 5, 6, 7};
constexpr ExactFields kSubRequest{2, 3, 4, 5, 0, 6, 7};
constexpr uint32_t kSubRequestName = 1;
constexpr uint32_t kSelectorCel = 1;
constexpr uint32_t kCelExpression = 1;
constexpr uint32_t kCapacityRequests = 1;
namespace status {
constexpr uint32_t kAllocation = 1;
constexpr uint32_t kReservedFor = 2;
constexpr uint32_t kAllocationDevices = 1;
constexpr uint32_t kAllocationNodeSelector = 3;
constexpr uint32_t kDevicesResults = 1;
}  // namespace status
namespace result {
constexpr uint32_t kRequest = 1;
constexpr uint32_t kDriver = 2;
constexpr uint32_t kPool = 3;
constexpr uint32_t kDevice = 4;
constexpr uint32_t kAdminAccess = 5;
constexpr uint32_t kTolerations = 6;
constexpr uint32_t kShareId = 9;
constexpr uint32_t kConsumedCapacity = 10;
}  // namespace result
namespace consumer {
constexpr uint32_t kResource = 3;
constexpr uint32_t kName = 4;
constexpr uint32_t kUid = 5;
}  // namespace consumer
namespace node_selector {
constexpr uint32_t kTerms = 1;
constexpr uint32_t kMatchExpressions = 1;
constexpr uint32_t kMatchFields = 2;
constexpr uint32_t kKey = 1;
constexpr uint32_t kOperator = 2;
constexpr uint32_t kValues = 3;
}  // namespace node_selector

// Every embedded message of field `field`, in order.
kube::Result<std::vector<std::string_view>> Repeated(std::string_view message, uint32_t field) {
  std::vector<std::string_view> out;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == field && reader.is_bytes()) out.push_back(reader.bytes());
  }
  if (!reader.ok()) return reader.status();
  return out;
}

// One map<string, Quantity> entry into `out`; `bad` names the first invalid one.
Status AddQuantity(std::string_view entry,
                   kube::CompactVector<std::pair<std::string, kube::Quantity>>& out,
                   std::string& bad) {
  auto parts = kube::ProtoFields::QuantityEntry(entry);
  if (!parts.ok()) return parts.status();
  auto quantity = kube::Quantity::Parse(parts->second.value_or(""));
  if (quantity.ok()) {
    out.emplace_back(std::string(parts->first), *quantity);
  } else if (bad.empty()) {
    bad = parts->first;
  }
  return Status::Ok();
}

Status AddToleration(std::string_view message, kube::CompactVector<DeviceToleration>& out) {
  auto toleration = DeviceToleration::FromProto(message);
  if (!toleration.ok()) return toleration.status();
  out.push_back(std::move(*toleration));
  return Status::Ok();
}

Status AddSelector(std::string_view message, kube::CompactVector<std::string>& out) {
  auto cel = kube::ProtoFields::Find(message, kSelectorCel);
  if (!cel.ok()) return cel.status();
  if (!cel->has_value()) return Status::Ok();
  auto expression = kube::ProtoFields::Find(**cel, kCelExpression);
  if (!expression.ok()) return expression.status();
  if (expression->has_value() && !(*expression)->empty()) out.emplace_back(**expression);
  return Status::Ok();
}

Status ReadCapacity(std::string_view message, ResourceClaim::ExactRequest& r, std::string& bad) {
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == kCapacityRequests && reader.is_bytes()) {
      KUBE_RETURN_IF_ERROR(AddQuantity(reader.bytes(), r.capacity_requests, bad));
    }
  }
  return reader.status();
}

kube::Result<ResourceClaim::ExactRequest> ReadExact(std::string_view message,
                                                    const ExactFields& fields,
                                                    const std::string& path) {
  ResourceClaim::ExactRequest r;
  std::string_view mode;
  std::string bad;
  ProtoReader reader(message);
  while (reader.Next()) {
    uint32_t f = reader.field();
    if (reader.is_varint()) {
      // JSON omits a zero count (omitempty), which reads as the default 1.
      if (f == fields.count) r.count = reader.AsInt64() == 0 ? 1 : reader.AsInt64();
      if (f == fields.admin_access) r.admin_access = reader.AsBool();
      continue;
    }
    if (!reader.is_bytes()) continue;
    if (f == fields.device_class_name) r.device_class_name = reader.AsString();
    if (f == fields.allocation_mode) mode = reader.bytes();
    if (f == fields.selectors) KUBE_RETURN_IF_ERROR(AddSelector(reader.bytes(), r.selectors));
    if (f == fields.tolerations) KUBE_RETURN_IF_ERROR(AddToleration(reader.bytes(), r.tolerations));
    if (f == fields.capacity) KUBE_RETURN_IF_ERROR(ReadCapacity(reader.bytes(), r, bad));
  }
  if (!reader.ok()) return reader.status().WithContext(path);
  r.allocation_mode = ResourceClaim::ModeFromText(mode, path, r.invalid_reason);
  if (!bad.empty() && r.invalid_reason.empty()) {
    r.invalid_reason = path + ".capacity.requests[" + bad + "]: invalid quantity";
  }
  return r;
}

kube::Result<ResourceClaim::Request> ReadRequest(std::string_view message,
                                                 const std::string& path) {
  ResourceClaim::Request r;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == request::kName) r.name = reader.AsString();
    if (reader.field() == request::kExactly) {
      auto exact = ReadExact(reader.bytes(), kExactly, path + ".exactly");
      if (!exact.ok()) return exact.status();
      r.exactly = std::move(*exact);
    }
    if (reader.field() == request::kFirstAvailable) {
      std::string sub_path =
          path + ".firstAvailable[" + std::to_string(r.first_available.size()) + "]";
      auto name = kube::ProtoFields::Find(reader.bytes(), kSubRequestName);
      if (!name.ok()) return name.status();
      auto sub = ReadExact(reader.bytes(), kSubRequest, sub_path);
      if (!sub.ok()) return sub.status();
      r.first_available.push_back({std::string(name->value_or("")), std::move(*sub)});
    }
  }
  if (!reader.ok()) return reader.status().WithContext(path);
  return r;
}

Status ReadOwner(std::string_view message, ResourceClaim& c) {
  ResourceClaim::OwnerReference owner;
  bool controller = false;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == meta::kOwnerController && reader.is_varint()) {
      controller = reader.AsBool();
    }
    if (!reader.is_bytes()) continue;
    if (reader.field() == meta::kOwnerKind) owner.kind = reader.AsString();
    if (reader.field() == meta::kOwnerName) owner.name = reader.AsString();
    if (reader.field() == meta::kOwnerUid) owner.uid = reader.AsString();
  }
  if (!reader.ok()) return reader.status().WithContext("ownerReferences");
  if (controller && !c.controller.has_value()) c.controller = std::move(owner);
  return Status::Ok();
}

Status ReadMetadataExtras(std::string_view object, ResourceClaim& c) {
  auto metadata = kube::ProtoFields::Find(object, kube::ObjectMeta::kProtoField);
  if (!metadata.ok()) return metadata.status();
  ProtoReader reader(metadata->value_or(""));
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kube::ObjectMeta::kProtoAnnotations) {
      auto entry = kube::ProtoFields::Entry(reader.bytes());
      if (!entry.ok()) return entry.status();
      c.ReadAnnotation(entry->first, entry->second);
    }
    if (reader.field() == meta::kOwnerReferences) {
      KUBE_RETURN_IF_ERROR(ReadOwner(reader.bytes(), c));
    }
  }
  return reader.status().WithContext("metadata");
}

Status ReadSpec(std::string_view spec, ResourceClaim& c) {
  auto devices = kube::ProtoFields::Find(spec, claim::kSpecDevices);
  if (!devices.ok()) return devices.status();
  auto requests = Repeated(devices->value_or(""), claim::kDevicesRequests);
  if (!requests.ok()) return requests.status();
  c.requests.reserve(requests->size());
  for (std::string_view r : *requests) {
    auto parsed =
        ReadRequest(r, "spec.devices.requests[" + std::to_string(c.requests.size()) + "]");
    if (!parsed.ok()) return parsed.status();
    c.requests.push_back(std::move(*parsed));
  }
  return Status::Ok();
}

kube::Result<ResourceClaim::AllocationResult> ReadResult(
    std::string_view message, const std::string& path, kube::CompactVector<std::string>& warnings) {
  ResourceClaim::AllocationResult r;
  std::string bad;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == result::kAdminAccess && reader.is_varint())
      r.admin_access = reader.AsBool();
    if (!reader.is_bytes()) continue;
    switch (reader.field()) {
      case result::kRequest:
        r.request = reader.AsString();
        break;
      case result::kDriver:
        r.driver = reader.AsString();
        break;
      case result::kPool:
        r.pool = reader.AsString();
        break;
      case result::kDevice:
        r.device = reader.AsString();
        break;
      case result::kShareId:
        r.share_id = reader.AsString();
        break;
      case result::kTolerations:
        KUBE_RETURN_IF_ERROR(AddToleration(reader.bytes(), r.tolerations));
        break;
      case result::kConsumedCapacity:
        KUBE_RETURN_IF_ERROR(AddQuantity(reader.bytes(), r.consumed_capacity, bad));
        break;
      default:
        break;
    }
  }
  if (!reader.ok()) return reader.status().WithContext(path);
  if (!bad.empty()) warnings.push_back(path + ".consumedCapacity[" + bad + "]: invalid; skipped");
  return r;
}

// "node-1" from a NodeSelector of exactly one term with exactly one
// matchFields requirement metadata.name In [node-1]; empty for any other shape.
kube::Result<std::string> NodeLocalName(std::string_view selector) {
  auto terms = Repeated(selector, node_selector::kTerms);
  if (!terms.ok()) return terms.status();
  if (terms->size() != 1) return std::string();
  auto expressions = Repeated(terms->front(), node_selector::kMatchExpressions);
  auto fields = Repeated(terms->front(), node_selector::kMatchFields);
  if (!expressions.ok()) return expressions.status();
  if (!fields.ok()) return fields.status();
  if (!expressions->empty() || fields->size() != 1) return std::string();
  std::string_view key, op;
  std::vector<std::string_view> values;
  ProtoReader reader(fields->front());
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == node_selector::kKey) key = reader.bytes();
    if (reader.field() == node_selector::kOperator) op = reader.bytes();
    if (reader.field() == node_selector::kValues) values.push_back(reader.bytes());
  }
  if (!reader.ok()) return reader.status();
  if (key != "metadata.name" || op != "In" || values.size() != 1) return std::string();
  return std::string(values.front());
}

Status ReadAllocation(std::string_view allocation, ResourceClaim& c) {
  c.allocated = true;
  ProtoReader reader(allocation);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == status::kAllocationNodeSelector) {
      auto name = NodeLocalName(reader.bytes());
      if (!name.ok()) return name.status();
      c.allocated_node_name = std::move(*name);
    }
    if (reader.field() != status::kAllocationDevices) continue;
    auto results = Repeated(reader.bytes(), status::kDevicesResults);
    if (!results.ok()) return results.status();
    c.results.reserve(c.results.size() + results->size());
    for (std::string_view r : *results) {
      std::string path =
          "status.allocation.devices.results[" + std::to_string(c.results.size()) + "]";
      auto parsed = ReadResult(r, path, c.warnings);
      if (!parsed.ok()) return parsed.status();
      c.results.push_back(std::move(*parsed));
    }
  }
  return reader.status().WithContext("status.allocation");
}

Status ReadConsumer(std::string_view message, ResourceClaim& c) {
  ResourceClaim::Consumer consumer;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == consumer::kResource) consumer.resource = reader.AsString();
    if (reader.field() == consumer::kName) consumer.name = reader.AsString();
    if (reader.field() == consumer::kUid) consumer.uid = reader.AsString();
  }
  if (!reader.ok()) return reader.status().WithContext("status.reservedFor");
  c.reserved_for.push_back(std::move(consumer));
  return Status::Ok();
}

Status ReadStatus(std::string_view message, ResourceClaim& c) {
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == status::kAllocation) {
      KUBE_RETURN_IF_ERROR(ReadAllocation(reader.bytes(), c));
    }
    if (reader.field() == status::kReservedFor)
      KUBE_RETURN_IF_ERROR(ReadConsumer(reader.bytes(), c));
  }
  return reader.status().WithContext("status");
}

}  // namespace

kube::Result<ResourceClaim> ResourceClaimProtoDecoder::Decode(std::string_view object) {
  ResourceClaim c;
  KUBE_ASSIGN_OR_RETURN(c.meta,
                        kube::ObjectMeta::FromProto(object, kube::ObjectMeta::Labels::kSkip));
  KUBE_RETURN_IF_ERROR(ReadMetadataExtras(object, c));
  ProtoReader reader(object);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == claim::kSpec) KUBE_RETURN_IF_ERROR(ReadSpec(reader.bytes(), c));
    if (reader.field() == claim::kStatus) KUBE_RETURN_IF_ERROR(ReadStatus(reader.bytes(), c));
  }
  if (!reader.ok()) return reader.status().WithContext("claim");
  return c;
}

}  // namespace dra::api
