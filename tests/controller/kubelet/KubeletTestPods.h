#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "controller/api/PodView.h"

namespace dra::kubelet::testing {

// A running Pod "ml/<name>" whose container "main" reports, for claim
// "gpu/one", each (resourceID, health).
inline std::shared_ptr<const api::PodView> PodReporting(
    const std::string& name,
    const std::vector<std::pair<std::string, api::PodView::ReportedHealth>>& reports,
    const std::string& phase = "Running") {
  api::PodView pod;
  pod.meta.name = name;
  pod.meta.namespace_name = "ml";
  pod.meta.uid = kube::Uid(name + "-uid");
  pod.node_name = kube::InternedString("node-a");
  pod.phase = phase;
  for (const auto& [id, health] : reports) {
    pod.device_reports.push_back({"main", "gpu/one", id, health});
  }
  return std::make_shared<const api::PodView>(std::move(pod));
}

}  // namespace dra::kubelet::testing
