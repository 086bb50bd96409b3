#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "controller/alerts/ResolutionStore.h"
#include "src/client/RestClient.h"

namespace dra::alerts {

// ResolutionStore in one ConfigMap (data key kDataKey), written with its
// resourceVersion so replicas that add at once both keep what they add.
class RestResolutionStore : public ResolutionStore {
 public:
  static constexpr const char* kDataKey = "resolutions.json";
  // Conflicting writers retried before Add gives up.
  static constexpr int kAttempts = 5;

  RestResolutionStore(std::shared_ptr<kube::RestClient> client, std::string namespace_name,
                      std::string name)
      : client_(std::move(client)), namespace_(std::move(namespace_name)), name_(std::move(name)) {}

  kube::Result<ResolutionMemory> Load() override;
  kube::Status Add(const std::vector<ResolutionMemory::Entry>& resolved) override;

 private:
  // The ConfigMap, or nullopt when it does not exist yet.
  kube::Result<std::optional<nlohmann::json>> Fetch();
  // The memory a ConfigMap holds; one that is not a memory reads as empty
  // (it is rewritten whole on the next Add), and the log says so.
  ResolutionMemory MemoryOf(const std::optional<nlohmann::json>& config_map) const;
  kube::Status Write(const std::optional<nlohmann::json>& current, const ResolutionMemory& memory);

  std::shared_ptr<kube::RestClient> client_;
  std::string namespace_;
  std::string name_;
};

}  // namespace dra::alerts
