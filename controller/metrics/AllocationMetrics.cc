#include "controller/metrics/AllocationMetrics.h"

#include "controller/metrics/ClaimCollector.h"
#include "controller/metrics/DeviceCollector.h"
#include "controller/metrics/DeviceInfoCollector.h"
#include "controller/metrics/ExtendedResourceCollector.h"
#include "controller/metrics/PoolCollector.h"

namespace dra::metrics {

AllocationMetrics::AllocationMetrics(MetricsSources sources) : sources_(std::move(sources)) {}

std::string AllocationMetrics::Render() const {
  const inventory::Inventory& inventory = *sources_.inventory;
  auto pods = sources_.ListPods();
  auto nodes = sources_.ListNodes();
  ClaimCollector claims;
  inventory.VisitClaims([&](const api::ResourceClaim& claim) { claims.Add(claim); });
  DeviceCollector devices(sources_.Unhealthy());
  DeviceInfoCollector info(sources_.device_attributes, claims.reservations());
  inventory.VisitDevices([&](const inventory::DeviceVisit& device) {
    devices.Add(device);
    info.Add(device);
  });
  auto classes = inventory.ClassObjects();
  auto totals = devices.TotalsByClass();

  std::string out;
  devices.Render(out);
  PoolCollector::Render(out, inventory.Pools());
  ExtendedResourceCollector::Render(out, {.classes = &classes,
                                          .totals = &totals,
                                          .pods = sources_.pods ? &pods : nullptr,
                                          .nodes = sources_.nodes ? &nodes : nullptr});
  claims.Render(out, sources_.pods ? &pods : nullptr);
  info.Render(out);
  return out;
}

}  // namespace dra::metrics
