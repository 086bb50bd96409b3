#include "controller/alerts/RestResolutionStore.h"

#include <spdlog/spdlog.h>

#include "src/base/NlohmannFields.h"

namespace dra::alerts {
namespace {

const kube::ResourceType kConfigMaps{"", "v1", "configmaps", true, "ConfigMap"};

}  // namespace

kube::Result<std::optional<nlohmann::json>> RestResolutionStore::Fetch() {
  auto current = client_->Get(kConfigMaps.ItemPath(namespace_, name_));
  if (!current.ok() && current.status().code() == kube::StatusCode::kNotFound) {
    return std::optional<nlohmann::json>();
  }
  if (!current.ok()) {
    return current.status().WithContext("reading ConfigMap " + namespace_ + "/" + name_);
  }
  return std::optional<nlohmann::json>(std::move(*current));
}

ResolutionMemory RestResolutionStore::MemoryOf(
    const std::optional<nlohmann::json>& config_map) const {
  if (!config_map) return {};
  using kube::NlohmannFields;
  std::string text =
      NlohmannFields::Text(NlohmannFields::At(NlohmannFields::At(*config_map, "data"), kDataKey));
  auto memory = ResolutionMemory::FromText(text);
  if (memory.ok()) return std::move(*memory);
  spdlog::warn("ConfigMap {}/{}: {}; starting it afresh", namespace_, name_,
               memory.status().message());
  return {};
}

kube::Result<ResolutionMemory> RestResolutionStore::Load() {
  auto current = Fetch();
  if (!current.ok()) return current.status();
  return MemoryOf(*current);
}

kube::Status RestResolutionStore::Add(const std::vector<ResolutionMemory::Entry>& resolved) {
  kube::Status last = kube::Status::Ok();
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    auto current = Fetch();
    if (!current.ok()) return current.status();
    ResolutionMemory memory = MemoryOf(*current);
    for (const auto& entry : resolved) memory.Add(entry);
    memory.Prune();
    last = Write(*current, memory);
    if (last.code() != kube::StatusCode::kConflict &&
        last.code() != kube::StatusCode::kAlreadyExists) {
      return last;
    }
  }
  return last.WithContext("ConfigMap " + namespace_ + "/" + name_ + " kept changing");
}

kube::Status RestResolutionStore::Write(const std::optional<nlohmann::json>& current,
                                        const ResolutionMemory& memory) {
  nlohmann::json object = {{"apiVersion", "v1"},
                           {"kind", "ConfigMap"},
                           {"metadata",
                            {{"name", name_},
                             {"namespace", namespace_},
                             {"labels", {{"app.kubernetes.io/managed-by", "dra-controller"}}}}},
                           {"data", {{kDataKey, memory.ToText()}}}};
  if (!current) {
    auto created = client_->Create(kConfigMaps, namespace_, object);
    return created.ok() ? kube::Status::Ok() : created.status();
  }
  object["metadata"]["resourceVersion"] = kube::NlohmannFields::Text(
      kube::NlohmannFields::At(kube::NlohmannFields::At(*current, "metadata"), "resourceVersion"));
  auto updated = client_->Update(kConfigMaps.ItemPath(namespace_, name_), object);
  return updated.ok() ? kube::Status::Ok() : updated.status();
}

}  // namespace dra::alerts
