#include "src/cache/ObjectMeta.h"

#include "src/cache/JsonFields.h"
#include "src/proto/ProtoFields.h"
#include "src/proto/ProtoReader.h"

namespace kube {

namespace {

void ReadLabels(simdjson::dom::element metadata, ObjectMeta& meta) {
  simdjson::dom::object labels;
  if (json::Field(metadata, "labels").get(labels) != simdjson::SUCCESS) return;
  meta.labels.reserve(labels.size());
  for (auto [key, value] : labels) {
    std::string_view v;
    if (value.get(v) == simdjson::SUCCESS)
      meta.labels.emplace_back(std::string(key), std::string(v));
  }
  meta.labels.shrink_to_fit();
}

// metav1.ObjectMeta and metav1.Time field numbers.
constexpr uint32_t kName = 1;
constexpr uint32_t kNamespace = 3;
constexpr uint32_t kUid = 5;
constexpr uint32_t kResourceVersion = 6;
constexpr uint32_t kDeletionTimestamp = 9;
constexpr uint32_t kLabels = 11;

Status ReadMetadataField(const ProtoReader& field, ObjectMeta& meta, ObjectMeta::Labels labels) {
  if (!field.is_bytes()) return Status::Ok();
  switch (field.field()) {
    case kName:
      meta.name = field.AsString();
      break;
    case kNamespace:
      meta.namespace_name = field.AsString();
      break;
    case kUid:
      meta.uid = field.AsString();
      break;
    case kResourceVersion:
      meta.resource_version = field.AsString();
      break;
    case kDeletionTimestamp:
      meta.deleting = true;
      break;
    case kLabels:
      if (labels == ObjectMeta::Labels::kKeep) {
        auto entry_or = ProtoFields::StringEntry(field.bytes());
        if (!entry_or.ok()) return entry_or.status();
        auto entry = std::move(*entry_or);
        meta.labels.emplace_back(std::move(entry));
      }
      break;
    default:
      break;
  }
  return Status::Ok();
}

}  // namespace

Result<ObjectMeta> ObjectMeta::FromProto(std::string_view object, Labels labels) {
  auto metadata = ProtoFields::FindFirst(object, kProtoField);
  if (!metadata.ok()) return metadata.status();
  if (!metadata->has_value()) return Status(StatusCode::kParseError, "object has no metadata");
  ObjectMeta meta;
  ProtoReader reader(**metadata);
  while (reader.Next()) KUBE_RETURN_IF_ERROR(ReadMetadataField(reader, meta, labels));
  if (!reader.ok()) return reader.status().WithContext("metadata");
  if (meta.name.empty()) return Status(StatusCode::kParseError, "object has no metadata.name");
  meta.labels.shrink_to_fit();
  return meta;
}

Result<ObjectMeta> ObjectMeta::FromRaw(const RawObject& object, Labels labels) {
  return object.is_protobuf() ? FromProto(object.protobuf(), labels)
                              : FromObject(object.json(), labels);
}

Result<ObjectMeta> ObjectMeta::FromObject(simdjson::dom::element object, Labels labels) {
  simdjson::dom::element metadata = json::Field(object, "metadata");
  if (!json::IsObject(metadata)) return Status(StatusCode::kParseError, "object has no metadata");
  ObjectMeta meta;
  meta.name = json::StringOr(metadata, "name");
  if (meta.name.empty()) return Status(StatusCode::kParseError, "object has no metadata.name");
  meta.namespace_name = json::StringOr(metadata, "namespace");
  meta.uid = json::StringOr(metadata, "uid");
  meta.resource_version = json::StringOr(metadata, "resourceVersion");
  meta.deleting = json::Has(metadata, "deletionTimestamp");
  if (labels == Labels::kKeep) ReadLabels(metadata, meta);
  return meta;
}

}  // namespace kube
