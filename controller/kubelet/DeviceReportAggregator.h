#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/PodView.h"
#include "controller/inventory/DeviceKey.h"

namespace dra::kubelet {

// What the kubelets' reports say of one device, and which reports say it.
struct DeviceVerdict {
  // nullopt: no current report names the device, which says nothing of it.
  std::optional<api::HealthState> state;
  // "<namespace>/<pod> container <c> claim <claim>[/<request>]" of every
  // report with `state` (none when Healthy), sorted, without duplicates.
  std::vector<std::string> reporters;
};

// Turns the device reports of Pod statuses into one state per device: Unhealthy
// when any current report says so, else Unknown when any says Unknown, else
// Healthy when one says so; no state when no running Pod reports the device.
class DeviceReportAggregator {
 public:
  // The device a report's resourceID names when it has the kubelet's
  // "<driver>/<pool>/<device>" form; nullopt for other forms (a CDI device ID
  // such as "vendor.com/gpu=0", which names no pool).
  static std::optional<inventory::DeviceKey> DeviceOf(std::string_view resource_id);
  // "<driver>/<pool>/<device>" of each device the Pod reports, once each.
  static std::vector<std::string> DeviceKeysOf(const api::PodView& pod);
  // Whether the Pod's reports no longer count: it has terminated.
  static bool Terminated(const api::PodView& pod);
  static DeviceVerdict Aggregate(const std::vector<std::shared_ptr<const api::PodView>>& pods,
                                 const inventory::DeviceKey& device);
};

}  // namespace dra::kubelet
