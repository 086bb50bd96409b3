#include "controller/health/RestHealthWriter.h"

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/health/TaintRuleBuilder.h"

namespace dra::health {

kube::Status RestHealthWriter::ApplyRule(const nlohmann::json& rule) {
  std::string name = rule["metadata"]["name"].get<std::string>();
  nlohmann::json body = rule;
  body["apiVersion"] = rules_.ApiVersion();  // the same fields at every version served
  auto applied = client_->Apply(rules_.ItemPath("", name), body, kFieldManager, true);
  return applied.ok() ? kube::Status::Ok() : applied.status().WithContext("applying " + name);
}

kube::Status RestHealthWriter::DeleteRule(const std::string& name, const std::string& uid) {
  kube::DeleteOptions options;
  options.precondition_uid = uid;
  kube::Status status = client_->DeleteIfExists(rules_.ItemPath("", name), options);
  // A uid precondition that fails means the rule was re-created meanwhile:
  // the next reconcile looks at the new one.
  if (status.code() == kube::StatusCode::kConflict) return kube::Status::Ok();
  return status.ok() ? status : status.WithContext("deleting " + name);
}

kube::Status RestHealthWriter::PatchStatus(const std::string& name, const nlohmann::json& status) {
  nlohmann::json body = {{"status", status}};
  auto patched = client_->Patch(api::DeviceHealth::kResource.ItemPath("", name) + "/status",
                                kube::PatchType::kMerge, body.dump());
  return patched.ok() ? kube::Status::Ok()
                      : patched.status().WithContext("updating status of DeviceHealth " + name);
}

}  // namespace dra::health
