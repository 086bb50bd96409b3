#include "controller/kubelet/ReportVerifier.h"

#include <algorithm>

namespace dra::kubelet {
namespace {

bool Names(const std::vector<inventory::PodUse>& uses, const api::PodView& pod) {
  std::string uid = pod.meta.uid.str();
  return !uid.empty() && std::any_of(uses.begin(), uses.end(),
                                     [&](const inventory::PodUse& use) { return use.uid == uid; });
}

}  // namespace

const char* ReportTrustName(ReportTrust trust) {
  switch (trust) {
    case ReportTrust::kTrusted:
      return "trusted";
    case ReportTrust::kNotAllocated:
      return "not_allocated";
    case ReportTrust::kOtherNode:
      return "other_node";
  }
  return "unknown";
}

ReportTrust ReportVerifier::Check(const api::PodView& pod,
                                  const inventory::DeviceKey& device) const {
  if (!Names(inventory_.PodsUsing(device), pod) &&
      !Names(inventory_.PodsWithAdminAccess(device), pod)) {
    return ReportTrust::kNotAllocated;
  }
  auto info = inventory_.Find(device);
  if (info && !info->node_name.empty() && info->node_name != pod.node_name.view()) {
    return ReportTrust::kOtherNode;
  }
  return ReportTrust::kTrusted;
}

}  // namespace dra::kubelet
