#pragma once

#include <memory>

#include "controller/health/HealthWriter.h"
#include "src/client/ResourceType.h"
#include "src/client/RestClient.h"

namespace dra::health {

// HealthWriter on the REST API: SSA (field manager dra-controller, forced, so
// a rule edited by someone else is put back), conditional delete, and a merge
// patch of devicehealths/status.
class RestHealthWriter : public HealthWriter {
 public:
  // `rules`: DeviceTaintRules at the version the cluster serves (TaintRuleApi).
  RestHealthWriter(std::shared_ptr<kube::RestClient> client, kube::ResourceType rules)
      : client_(std::move(client)), rules_(std::move(rules)) {}

  kube::Status ApplyRule(const nlohmann::json& rule) override;
  kube::Status DeleteRule(const std::string& name, const std::string& uid) override;
  kube::Status PatchStatus(const std::string& name, const nlohmann::json& status) override;

 private:
  std::shared_ptr<kube::RestClient> client_;
  kube::ResourceType rules_;
};

}  // namespace dra::health
