#include "src/cache/ObjectMeta.h"

#include "src/cache/JsonFields.h"

namespace kube {

Result<ObjectMeta> ObjectMeta::FromObject(simdjson::dom::element object) {
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
  simdjson::dom::object labels;
  if (json::Field(metadata, "labels").get(labels) == simdjson::SUCCESS) {
    for (auto [key, value] : labels) {
      std::string_view v;
      if (value.get(v) == simdjson::SUCCESS)
        meta.labels.emplace_back(std::string(key), std::string(v));
    }
  }
  return meta;
}

}  // namespace kube
