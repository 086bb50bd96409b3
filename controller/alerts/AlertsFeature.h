#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "controller/alerts/AlertLabelFilter.h"
#include "controller/alerts/AlertMapper.h"
#include "controller/feature/Feature.h"
#include "controller/health/DeviceAttributeNames.h"
#include "src/http/EndpointServer.h"

namespace dra::alerts {

// The Alertmanager webhook receiver as a `run` feature, off unless
// --alertmanager-webhook-bind-address is set: an HTTPS server (the
// --metrics-cert-dir certificate, else a self-signed one) serving
// AlertWebhook at POST /alertmanager on every replica once the device
// inventory has synced (writes are guarded by resourceVersion, so any
// replica may take a notification). Warning Events name the controller's
// Pod (POD_NAME and POD_NAMESPACE from the downward API); only the leader
// writes Events. Off, with a warning, where DeviceHealths are not served.
class AlertsFeature : public feature::Feature {
 public:
  std::string_view Name() const override { return "alertmanager-webhook"; }
  // Its DeviceHealths are acted on by device health.
  std::vector<std::string_view> Needs() const override { return {"device-health"}; }
  void DeclareFlags(kube::FlagSet& flags) override;
  kube::Status ParseFlags(const kube::FlagSet& flags) override;
  kube::Status Wire(feature::FeatureContext& context) override;

 private:
  std::string bind_address_;
  AlertLabels labels_;
  AlertLabelFilter required_labels_;
  health::DeviceAttributeNames attribute_names_;
  // What the Manager's runnable starts and stops; shared, so the runnable
  // never outlives what it stops.
  std::shared_ptr<std::unique_ptr<kube::EndpointServer>> server_ =
      std::make_shared<std::unique_ptr<kube::EndpointServer>>();
};

}  // namespace dra::alerts
