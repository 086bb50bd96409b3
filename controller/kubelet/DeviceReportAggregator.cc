#include "controller/kubelet/DeviceReportAggregator.h"

#include <algorithm>

namespace dra::kubelet {
namespace {

using Health = api::PodView::ReportedHealth;

api::HealthState StateOf(Health health) {
  switch (health) {
    case Health::kHealthy:
      return api::HealthState::kHealthy;
    case Health::kUnhealthy:
      return api::HealthState::kUnhealthy;
    case Health::kUnknown:
      break;
  }
  return api::HealthState::kUnknown;
}

// Unhealthy outranks Unknown, which outranks Healthy.
int Rank(api::HealthState state) {
  if (state == api::HealthState::kUnhealthy) return 2;
  return state == api::HealthState::kUnknown ? 1 : 0;
}

std::string Reporter(const api::PodView& pod, const api::PodView::DeviceReport& report) {
  return pod.meta.Key() + " container " + report.container + " claim " + report.claim;
}

}  // namespace

std::optional<inventory::DeviceKey> DeviceReportAggregator::DeviceOf(std::string_view resource_id) {
  if (resource_id.find('=') != std::string_view::npos) return std::nullopt;
  auto key = inventory::DeviceKey::Parse(resource_id);
  if (!key.ok()) return std::nullopt;
  return *key;
}

std::vector<std::string> DeviceReportAggregator::DeviceKeysOf(const api::PodView& pod) {
  std::vector<std::string> keys;
  for (const auto& report : pod.device_reports) {
    auto device = DeviceOf(report.resource_id);
    if (device) keys.push_back(device->ToString());
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

bool DeviceReportAggregator::Terminated(const api::PodView& pod) {
  return pod.phase == "Succeeded" || pod.phase == "Failed";
}

DeviceVerdict DeviceReportAggregator::Aggregate(
    const std::vector<std::shared_ptr<const api::PodView>>& pods,
    const inventory::DeviceKey& device) {
  DeviceVerdict verdict;
  const std::string key = device.ToString();
  for (const auto& pod : pods) {
    if (Terminated(*pod)) continue;
    for (const auto& report : pod->device_reports) {
      if (report.resource_id != key) continue;
      api::HealthState state = StateOf(report.health);
      if (!verdict.state || Rank(state) > Rank(*verdict.state)) {
        verdict.state = state;
        verdict.reporters.clear();
      }
      if (state == verdict.state) verdict.reporters.push_back(Reporter(*pod, report));
    }
  }
  std::sort(verdict.reporters.begin(), verdict.reporters.end());
  verdict.reporters.erase(std::unique(verdict.reporters.begin(), verdict.reporters.end()),
                          verdict.reporters.end());
  return verdict;
}

}  // namespace dra::kubelet
