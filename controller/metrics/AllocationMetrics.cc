#include "controller/metrics/AllocationMetrics.h"

#include "controller/metrics/ClaimCollector.h"
#include "controller/metrics/DeviceCollector.h"
#include "controller/metrics/DeviceInfoCollector.h"
#include "controller/metrics/ExtendedResourceCollector.h"
#include "controller/metrics/PoolCollector.h"

namespace dra::metrics {
namespace {

void Append(std::vector<prometheus::MetricFamily>& out, std::vector<prometheus::MetricFamily> in) {
  for (auto& family : in) out.push_back(std::move(family));
}

}  // namespace

AllocationMetrics::AllocationMetrics(MetricsSources sources) : sources_(std::move(sources)) {}

std::vector<prometheus::MetricFamily> AllocationMetrics::Collect() const {
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

  std::vector<prometheus::MetricFamily> out = devices.Families();
  Append(out, PoolCollector::Families(inventory.Pools()));
  Append(out, ExtendedResourceCollector::Families({.classes = &classes,
                                                   .totals = &totals,
                                                   .pods = sources_.pods ? &pods : nullptr,
                                                   .nodes = sources_.nodes ? &nodes : nullptr}));
  Append(out, claims.Families(sources_.pods ? &pods : nullptr));
  Append(out, info.Families());
  return out;
}

}  // namespace dra::metrics
