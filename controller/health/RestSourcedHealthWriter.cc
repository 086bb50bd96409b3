#include "controller/health/RestSourcedHealthWriter.h"

#include <simdjson.h>

#include "controller/api/DeviceHealth.h"
#include "controller/health/RestHealthWriter.h"

namespace dra::health {
namespace {

const kube::ResourceType& Type() { return api::DeviceHealth::kResource; }

std::string FieldManager(const SourcedHealth& health) { return "dra-controller-" + health.source; }

bool CarriesSource(const nlohmann::json& object, const std::string& source) {
  const auto* labels = object.contains("metadata") ? &object["metadata"] : nullptr;
  if (labels == nullptr || !labels->contains("labels")) return false;
  const auto& all = (*labels)["labels"];
  auto it = all.find(kSourceLabel);
  return it != all.end() && it->is_string() && it->get<std::string>() == source;
}

bool AnnotationsHeld(const nlohmann::json& object, const SourcedHealth& health) {
  const nlohmann::json meta = object.value("metadata", nlohmann::json::object());
  const nlohmann::json held = meta.value("annotations", nlohmann::json::object());
  for (const auto& [key, value] : health.annotations) {
    auto it = held.find(key);
    if (it == held.end() || !it->is_string() || it->get<std::string>() != value) return false;
  }
  return true;
}

// A merge patch from `old_spec` to `new_spec`: fields the new one drops are nulled.
nlohmann::json SpecPatch(const nlohmann::json& old_spec, const nlohmann::json& new_spec) {
  nlohmann::json patch = new_spec;
  if (!old_spec.is_object()) return patch;
  for (const auto& [key, value] : old_spec.items()) {
    if (!new_spec.contains(key)) patch[key] = nullptr;
  }
  return patch;
}

kube::Result<api::DeviceHealth> Decode(const nlohmann::json& object) {
  simdjson::dom::parser parser;
  simdjson::dom::element element;
  if (parser.parse(object.dump()).get(element) != simdjson::SUCCESS) {
    return kube::Status(kube::StatusCode::kParseError, "DeviceHealth is not JSON");
  }
  return api::DeviceHealth::FromJson(element);
}

}  // namespace

nlohmann::json RestSourcedHealthWriter::SpecOf(const SourcedHealth& health) {
  nlohmann::json spec = nlohmann::json::object();
  if (!health.driver.empty()) spec["driver"] = health.driver;
  if (!health.pool.empty()) spec["pool"] = health.pool;
  if (!health.device.empty()) spec["device"] = health.device;
  if (!health.uuid.empty()) spec["uuid"] = health.uuid;
  if (!health.node.empty()) spec["node"] = health.node;
  if (health.index.has_value()) spec["index"] = *health.index;
  spec["state"] = std::string(api::HealthStateName(health.state));
  if (!health.reason.empty()) spec["reason"] = health.reason;
  if (!health.message.empty()) spec["message"] = health.message;
  return spec;
}

kube::Result<SourcedWrite> RestSourcedHealthWriter::Apply(const SourcedHealth& health) {
  // The health reconciler patches the status of the same object, each time
  // a new resourceVersion: a busy object may need a few rounds.
  constexpr int kAttempts = 4;
  auto written = ApplyOnce(health);
  for (int attempt = 1; attempt < kAttempts; ++attempt) {
    bool raced = !written.ok() && (written.status().code() == kube::StatusCode::kConflict ||
                                   written.status().code() == kube::StatusCode::kAlreadyExists);
    if (!raced) break;
    written = ApplyOnce(health);
  }
  return written;
}

kube::Result<SourcedWrite> RestSourcedHealthWriter::ApplyOnce(const SourcedHealth& health) {
  std::string path = Type().ItemPath("", health.name);
  auto current = client_->Get(path);
  if (!current.ok() && current.status().code() != kube::StatusCode::kNotFound) {
    return current.status().WithContext("reading DeviceHealth " + health.name);
  }
  if (!current.ok()) {
    nlohmann::json object = {{"apiVersion", Type().ApiVersion()},
                             {"kind", Type().kind},
                             {"metadata",
                              {{"name", health.name},
                               {"labels", {{kSourceLabel, health.source}}},
                               {"annotations", health.annotations}}},
                             {"spec", SpecOf(health)}};
    auto created = client_->Create(Type(), "", object, FieldManager(health));
    if (!created.ok()) return created.status().WithContext("creating DeviceHealth " + health.name);
    return SourcedWrite::kCreated;
  }
  const nlohmann::json& object = *current;
  if (!CarriesSource(object, health.source)) return SourcedWrite::kNotOurs;
  nlohmann::json spec = SpecOf(health);
  nlohmann::json old_spec = object.value("spec", nlohmann::json::object());
  if (old_spec == spec && AnnotationsHeld(object, health)) return SourcedWrite::kUnchanged;
  nlohmann::json patch = {{"metadata",
                           {{"resourceVersion", object["metadata"].value("resourceVersion", "")},
                            {"annotations", health.annotations}}},
                          {"spec", SpecPatch(old_spec, spec)}};
  kube::PatchOptions options;
  options.field_manager = FieldManager(health);
  auto patched = client_->Patch(path, kube::PatchType::kMerge, patch.dump(), options);
  if (!patched.ok()) return patched.status().WithContext("updating DeviceHealth " + health.name);
  return SourcedWrite::kUpdated;
}

kube::Result<std::optional<api::DeviceHealth>> RestSourcedHealthWriter::Get(
    const std::string& name, const std::string& source) {
  auto current = client_->Get(Type().ItemPath("", name));
  if (!current.ok() && current.status().code() == kube::StatusCode::kNotFound) {
    return std::optional<api::DeviceHealth>();
  }
  if (!current.ok()) return current.status().WithContext("reading DeviceHealth " + name);
  if (!CarriesSource(*current, source)) return std::optional<api::DeviceHealth>();
  auto health = Decode(*current);
  if (!health.ok()) return health.status().WithContext("reading DeviceHealth " + name);
  return std::optional<api::DeviceHealth>(std::move(*health));
}

}  // namespace dra::health
