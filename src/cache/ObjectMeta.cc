#include "src/cache/ObjectMeta.h"

#include "src/cache/JsonFields.h"

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

}  // namespace

Result<ObjectMeta> ObjectMeta::FromObject(simdjson::dom::element object, Labels labels) {
  simdjson::dom::element metadata = json::Field(object, "metadata");
  if (!json::IsObject(metadata)) return Status(StatusCode::kParseError, "object has no metadata");
  ObjectMeta meta;
  meta.name = json::StringOr(metadata, "name");
  if (meta.name.empty()) return Status(StatusCode::kParseError, "object has no metadata.name");
  meta.namespace_name = json::StringOr(metadata, "namespace");
  meta.uid = json::StringOr(metadata, "uid");
  meta.resource_version = json::StringOr(metadata, "resourceVersion");
  meta.generation = json::IntOr(metadata, "generation");
  meta.creation_timestamp = json::ParseTimestamp(json::StringOr(metadata, "creationTimestamp"));
  meta.deleting = json::Has(metadata, "deletionTimestamp");
  if (labels == Labels::kKeep) ReadLabels(metadata, meta);
  return meta;
}

}  // namespace kube
