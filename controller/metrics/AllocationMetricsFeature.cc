#include "controller/metrics/AllocationMetricsFeature.h"

#include <spdlog/spdlog.h>

#include "controller/metrics/DeviceAttributeList.h"

namespace dra::metrics {

void AllocationMetricsFeature::DeclareFlags(kube::FlagSet& flags) {
  flags.String("metrics-device-attributes", "",
               "Device attributes to copy as labels onto dra_controller_device_info, comma "
               "separated (e.g. uuid,productName or gpu.example.com/uuid)");
}

kube::Status AllocationMetricsFeature::ParseFlags(const kube::FlagSet& flags) {
  auto attributes = DeviceAttributeList::Parse(flags.Get("metrics-device-attributes"));
  if (!attributes.ok()) {
    return kube::Status(kube::StatusCode::kInvalidArgument,
                        "--metrics-device-attributes: " + attributes.status().message());
  }
  device_attributes_ = std::move(*attributes);
  return kube::Status::Ok();
}

kube::Status AllocationMetricsFeature::Wire(feature::FeatureContext& context) {
  if (!context.manager.serves_metrics()) {
    // Nothing could scrape them; on a large fleet the rendered text alone is
    // tens of MB (docs/metrics.md).
    spdlog::info("allocation metrics off: /metrics is not served (--metrics-bind-address=0)");
    return kube::Status::Ok();
  }
  AllocationMetricsWiring::Options options;
  options.device_attributes = device_attributes_;
  options.unhealthy_devices = context.unhealthy_devices;
  wiring_ = AllocationMetricsWiring::Register(context.manager, context.inventory, context.informers,
                                              std::move(options));
  return kube::Status::Ok();
}

}  // namespace dra::metrics
