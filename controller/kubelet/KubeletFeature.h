#pragma once

#include <memory>
#include <string_view>

#include "controller/feature/Feature.h"
#include "controller/kubelet/KubeletHealthSource.h"

namespace dra::kubelet {

// The kubelet's device health reports (Pod status allocatedResourcesStatus)
// as a `run` feature: a leader-only controller, "kubelet-health", that keeps
// one DeviceHealth per reported device (KubeletHealthSource), on unless
// --kubelet-health-reports=false. Off, with a warning, where the API server
// does not serve DeviceHealths.
class KubeletFeature : public feature::Feature {
 public:
  std::string_view Name() const override { return "kubelet-health-reports"; }
  // Its DeviceHealths are acted on by device health.
  std::vector<std::string_view> Needs() const override { return {"device-health"}; }
  void DeclareFlags(kube::FlagSet& flags) override;
  kube::Status ParseFlags(const kube::FlagSet& flags) override;
  kube::Status Wire(feature::FeatureContext& context) override;

  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = true;
  std::shared_ptr<KubeletHealthSource> source_;
};

}  // namespace dra::kubelet
