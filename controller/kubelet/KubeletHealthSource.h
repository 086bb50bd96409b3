#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/PodView.h"
#include "controller/health/SourcedHealthWriter.h"
#include "controller/kubelet/DeviceReportAggregator.h"
#include "controller/kubelet/KubeletHealthMetrics.h"
#include "controller/kubelet/ReportVerifier.h"
#include "src/base/LogThrottle.h"
#include "src/queue/Reconciler.h"

namespace dra::kubelet {

// The kubelet as a monitoring source: reconciles one device (queue key
// "<driver>/<pool>/<device>") from the health reports of the cached Pods
// into the DeviceHealth named by HealthObjectName, labelled
// dra-controller.dev/source=kubelet. Only reports the cluster confirms count
// (ReportVerifier: the Pod's claims hold the device, on its node); the others
// are counted and logged, never acted on. A device gets an object once a
// report calls it Unhealthy; then it follows the reports (Unknown, Healthy).
// The object is the source's memory: when no running Pod reports the device
// (the reporter was evicted and deleted, the controller restarted) it stays
// as it is, since no report is no evidence. Only a Healthy report, or a
// person setting spec.state, reopens the device; device health's hold-off
// decides when its taint goes, and once it is gone (Retired) the object is
// deleted. Writes only when the cached object differs from what the reports say.
class KubeletHealthSource : public kube::Reconciler {
 public:
  static constexpr const char* kSource = "kubelet";

  struct Inputs {
    // The cached Pods (those with device reports among them).
    std::function<std::vector<std::shared_ptr<const api::PodView>>()> pods;
    // The cached DeviceHealth of that name, or null.
    std::function<std::shared_ptr<const api::DeviceHealth>(const std::string& name)> health;
    // Deletes that object if it is still that version (null: nothing is deleted).
    std::function<kube::Status(const api::DeviceHealth& health)> remove;
    // Whether the Pod's report of the device can be true (ReportVerifier).
    std::function<ReportTrust(const api::PodView& pod, const inventory::DeviceKey& device)> verify;
    // The known ResourceClaims, to trace a report that names its device by
    // CDI device ID (null: such reports name no device).
    DeviceReportAggregator::ClaimLookup claim;
  };

  KubeletHealthSource(Inputs inputs, std::shared_ptr<health::SourcedHealthWriter> writer,
                      std::shared_ptr<KubeletHealthMetrics> metrics);

  kube::ReconcileResult Reconcile(const std::string& device_key) override;

  // Event mapping: the devices a Pod reports; the device of a DeviceHealth
  // this source wrote (so a lost or edited object is written again), or of
  // one that took the name this source needs for a device (its deletion lets
  // the source write again).
  std::vector<std::string> KeysOfPod(const api::PodView& pod) const;
  std::vector<std::string> KeysOfHealth(const api::DeviceHealth& health) const;

  // Whether device health is done with a Healthy object: its status is of
  // the current spec, the effect is enforced and no rule is left.
  static bool Retired(const api::DeviceHealth& health);

  // What the reports of `verdict` (which has a state) make of the device's DeviceHealth.
  static health::SourcedHealth Desired(const inventory::DeviceKey& device,
                                       const DeviceVerdict& verdict);

 private:
  kube::ReconcileResult Remove(const api::DeviceHealth& health);
  kube::ReconcileResult Write(const health::SourcedHealth& desired, const std::string& device_key);
  // The Pods whose reports of `device` count; the others are counted and logged.
  std::vector<std::shared_ptr<const api::PodView>> Trusted(
      const std::vector<std::shared_ptr<const api::PodView>>& pods,
      const inventory::DeviceKey& device);
  void CountReports(const std::vector<std::shared_ptr<const api::PodView>>& pods,
                    const inventory::DeviceKey& device);
  void NoteSquatter(const std::string& name, const std::string& device_key);

  Inputs inputs_;
  DeviceReportAggregator aggregator_;
  std::shared_ptr<health::SourcedHealthWriter> writer_;
  std::shared_ptr<KubeletHealthMetrics> metrics_;
  kube::LogThrottle ignored_log_{std::chrono::seconds(10)};
  mutable std::mutex mu_;
  std::map<std::string, std::string> squatted_;  // object name -> device key
};

}  // namespace dra::kubelet
