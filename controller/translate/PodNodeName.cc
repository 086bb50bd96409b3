#include "controller/translate/PodNodeName.h"

#include "src/base/NlohmannFields.h"

namespace dra::translate {
namespace {

using nlohmann::json;

constexpr auto* At = &kube::NlohmannFields::At;
constexpr auto* Text = &kube::NlohmannFields::Text;

bool HasScheduledCondition(const json& pod) {
  const json& conditions = At(At(pod, "status"), "conditions");
  if (!conditions.is_array()) return false;
  for (const auto& c : conditions) {
    if (Text(At(c, "type")) == "PodScheduled" && Text(At(c, "status")) == "True") return true;
  }
  return false;
}

}  // namespace

bool PodNodeName::ManagerOwnsNodeName(const json& entry) {
  if (!Text(At(entry, "subresource")).empty()) return false;  // status, binding, ...
  return At(At(At(entry, "fieldsV1"), "f:spec"), "f:nodeName").is_object();
}

bool PodNodeName::SetByAuthor(const json& pod) {
  if (Text(At(At(pod, "spec"), "nodeName")).empty()) return false;
  const json& managers = At(At(pod, "metadata"), "managedFields");
  if (managers.is_array() && !managers.empty()) {
    for (const auto& entry : managers) {
      if (ManagerOwnsNodeName(entry)) return true;
    }
    return false;
  }
  return !HasScheduledCondition(pod);
}

}  // namespace dra::translate
