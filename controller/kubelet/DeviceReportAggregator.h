#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
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

// The devices one report is about.
struct ReportedDevices {
  std::vector<inventory::DeviceKey> devices;
  // False when the kubelet named a request of several devices by one CDI
  // device ID: the report is about one of them, which one is not said.
  bool exact = true;
};

// Turns the device reports of Pod statuses into one state per device: Unhealthy
// when any current report says so, else Unknown when any says Unknown, else
// Healthy when one says so; no state when no running Pod reports the device.
//
// The kubelet names a device "<driver>/<pool>/<device>", or by the first CDI
// device ID its driver gave for it ("vendor.com/class=name", which names no
// pool). A CDI-named report is traced through the Pod's claim and request
// ("claim:<claim>/<request>") to the ResourceClaim's allocation: one device
// there is the device; several are each closed by an Unhealthy or Unknown
// report, and none of them is reopened by a Healthy one (the kubelet shows one
// entry per CDI device ID, so a Healthy entry may hide a sick sibling).
class DeviceReportAggregator {
 public:
  // The ResourceClaim of that namespace and name, or null.
  using ClaimLookup = std::function<std::shared_ptr<const api::ResourceClaim>(
      std::string_view namespace_name, std::string_view name)>;

  // Without a lookup, CDI-named reports name no device.
  explicit DeviceReportAggregator(ClaimLookup claims = nullptr) : claims_(std::move(claims)) {}

  // The device a resourceID names when it has the kubelet's
  // "<driver>/<pool>/<device>" form; nullopt for other forms (a CDI device ID).
  static std::optional<inventory::DeviceKey> DeviceOf(std::string_view resource_id);
  // Whether the Pod's reports no longer count: it has terminated.
  static bool Terminated(const api::PodView& pod);

  ReportedDevices Resolve(const api::PodView& pod, const api::PodView::DeviceReport& report) const;
  // Whether the report says something of `device` (see the class comment).
  bool Counts(const api::PodView& pod, const api::PodView::DeviceReport& report,
              const inventory::DeviceKey& device) const;
  // "<driver>/<pool>/<device>" of each device the Pod reports, once each.
  std::vector<std::string> DeviceKeysOf(const api::PodView& pod) const;
  DeviceVerdict Aggregate(const std::vector<std::shared_ptr<const api::PodView>>& pods,
                          const inventory::DeviceKey& device) const;

 private:
  ReportedDevices ThroughClaim(const api::PodView& pod,
                               const api::PodView::DeviceReport& report) const;

  ClaimLookup claims_;
};

}  // namespace dra::kubelet
