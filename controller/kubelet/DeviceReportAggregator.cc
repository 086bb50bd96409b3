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

std::string Reporter(const api::PodView& pod, const api::PodView::DeviceReport& report,
                     const ReportedDevices& devices) {
  std::string reporter =
      pod.meta.Key() + " container " + report.container + " claim " + report.claim;
  if (devices.exact) return reporter;
  return reporter + " (one of its " + std::to_string(devices.devices.size()) + " devices)";
}

// A result of the container's request: "<request>" itself, or one of its
// subrequests ("<request>/<subrequest>"); every result when none is named.
bool OfRequest(std::string_view result_request, std::string_view request) {
  if (request.empty() || result_request == request) return true;
  return result_request.size() > request.size() && result_request.starts_with(request) &&
         result_request[request.size()] == '/';
}

}  // namespace

std::optional<inventory::DeviceKey> DeviceReportAggregator::DeviceOf(std::string_view resource_id) {
  if (resource_id.find('=') != std::string_view::npos) return std::nullopt;
  auto key = inventory::DeviceKey::Parse(resource_id);
  if (!key.ok()) return std::nullopt;
  return *key;
}

bool DeviceReportAggregator::Terminated(const api::PodView& pod) {
  return pod.phase == "Succeeded" || pod.phase == "Failed";
}

ReportedDevices DeviceReportAggregator::Resolve(const api::PodView& pod,
                                                const api::PodView::DeviceReport& report) const {
  if (auto device = DeviceOf(report.resource_id)) return {{*device}, true};
  return ThroughClaim(pod, report);
}

ReportedDevices DeviceReportAggregator::ThroughClaim(
    const api::PodView& pod, const api::PodView::DeviceReport& report) const {
  ReportedDevices reported;
  if (!claims_) return reported;
  std::string_view name = report.claim;
  std::string_view request;
  if (auto slash = name.find('/'); slash != std::string_view::npos) {
    request = name.substr(slash + 1);
    name = name.substr(0, slash);
  }
  std::string_view claim_name = pod.ResourceClaimOf(name);
  if (claim_name.empty()) return reported;
  auto claim = claims_(pod.meta.namespace_name.view(), claim_name);
  if (!claim || !claim->allocated) return reported;
  for (const auto& result : claim->results) {
    if (!OfRequest(result.request.view(), request)) continue;
    inventory::DeviceKey key{result.driver.str(), result.pool.str(), result.device.str()};
    if (std::find(reported.devices.begin(), reported.devices.end(), key) ==
        reported.devices.end()) {
      reported.devices.push_back(std::move(key));
    }
  }
  reported.exact = reported.devices.size() == 1;
  return reported;
}

bool DeviceReportAggregator::Counts(const api::PodView& pod,
                                    const api::PodView::DeviceReport& report,
                                    const inventory::DeviceKey& device) const {
  ReportedDevices reported = Resolve(pod, report);
  if (std::find(reported.devices.begin(), reported.devices.end(), device) ==
      reported.devices.end()) {
    return false;
  }
  return reported.exact || report.health != Health::kHealthy;
}

std::vector<std::string> DeviceReportAggregator::DeviceKeysOf(const api::PodView& pod) const {
  std::vector<std::string> keys;
  for (const auto& report : pod.device_reports) {
    for (const auto& device : Resolve(pod, report).devices) keys.push_back(device.ToString());
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

DeviceVerdict DeviceReportAggregator::Aggregate(
    const std::vector<std::shared_ptr<const api::PodView>>& pods,
    const inventory::DeviceKey& device) const {
  DeviceVerdict verdict;
  for (const auto& pod : pods) {
    if (Terminated(*pod)) continue;
    for (const auto& report : pod->device_reports) {
      if (!Counts(*pod, report, device)) continue;
      api::HealthState state = StateOf(report.health);
      if (!verdict.state || Rank(state) > Rank(*verdict.state)) {
        verdict.state = state;
        verdict.reporters.clear();
      }
      if (state == verdict.state) {
        verdict.reporters.push_back(Reporter(*pod, report, Resolve(*pod, report)));
      }
    }
  }
  std::sort(verdict.reporters.begin(), verdict.reporters.end());
  verdict.reporters.erase(std::unique(verdict.reporters.begin(), verdict.reporters.end()),
                          verdict.reporters.end());
  return verdict;
}

}  // namespace dra::kubelet
