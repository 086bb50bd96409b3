#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/PodView.h"
#include "controller/health/SourcedHealthWriter.h"
#include "controller/kubelet/DeviceReportAggregator.h"
#include "controller/kubelet/KubeletHealthMetrics.h"
#include "src/queue/Reconciler.h"

namespace dra::kubelet {

// The kubelet as a monitoring source: reconciles one device (queue key
// "<driver>/<pool>/<device>") from the health reports of the cached Pods
// into the DeviceHealth named by HealthObjectName, labelled
// dra-controller.dev/source=kubelet. A device gets an object once a report
// calls it Unhealthy; then it follows the reports (Unknown, Healthy),
// and device health's hold-off decides when its taint goes; once that taint is
// gone (Retired) the object is deleted. Writes only when the cached object
// differs from what the reports say.
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
  };

  KubeletHealthSource(Inputs inputs, std::shared_ptr<health::SourcedHealthWriter> writer,
                      std::shared_ptr<KubeletHealthMetrics> metrics);

  kube::ReconcileResult Reconcile(const std::string& device_key) override;

  // Event mapping: the devices a Pod reports; the device of a DeviceHealth
  // this source wrote (so a lost or edited object is written again).
  static std::vector<std::string> KeysOfPod(const api::PodView& pod);
  static std::vector<std::string> KeysOfHealth(const api::DeviceHealth& health);

  // Whether device health is done with a Healthy object: its status is of
  // the current spec, the effect is enforced and no rule is left.
  static bool Retired(const api::DeviceHealth& health);

  // What the reports of `verdict` make of the device's DeviceHealth.
  static health::SourcedHealth Desired(const inventory::DeviceKey& device,
                                       const DeviceVerdict& verdict);

 private:
  kube::ReconcileResult Remove(const api::DeviceHealth& health);
  void CountReports(const std::vector<std::shared_ptr<const api::PodView>>& pods,
                    const std::string& device_key);

  Inputs inputs_;
  std::shared_ptr<health::SourcedHealthWriter> writer_;
  std::shared_ptr<KubeletHealthMetrics> metrics_;
};

}  // namespace dra::kubelet
