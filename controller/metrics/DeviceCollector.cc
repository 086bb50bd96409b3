#include "controller/metrics/DeviceCollector.h"

#include <algorithm>

#include "controller/metrics/GaugeTable.h"

namespace dra::metrics {
namespace {

const std::vector<std::string> kLabels = {"driver", "pool", "node", "device_class"};

}  // namespace

DeviceCollector::DeviceCollector(const std::vector<std::string>& unhealthy)
    : unhealthy_(unhealthy.begin(), unhealthy.end()) {}

void DeviceCollector::Add(const inventory::DeviceVisit& d) {
  bool sick = !unhealthy_.empty() &&
              unhealthy_.contains(d.slice.driver + "/" + d.slice.pool.name + "/" + d.device.name);
  auto tally = [&](std::string_view device_class) {
    key_.clear();
    key_.append(d.slice.driver).push_back('\0');
    key_.append(d.slice.pool.name).push_back('\0');
    key_.append(d.node).push_back('\0');
    key_.append(device_class);
    auto [it, inserted] = groups_.try_emplace(key_);
    if (inserted) {
      it->second.labels = {d.slice.driver, d.slice.pool.name, std::string(d.node),
                           std::string(device_class)};
    }
    bool unusable = d.unusable != nullptr &&
                    std::binary_search(d.unusable->begin(), d.unusable->end(), device_class);
    Tally(it->second, d, sick, unusable);
  };
  if (d.classes.empty()) tally("");
  for (std::string_view device_class : d.classes) tally(device_class);
}

void DeviceCollector::Tally(Group& g, const inventory::DeviceVisit& d, bool unhealthy,
                            bool unusable) {
  ++g.published;
  g.allocatable += d.pool_complete && !d.no_schedule && !d.no_execute && !unusable ? 1 : 0;
  g.allocated += d.claims != nullptr ? 1 : 0;
  g.no_schedule += d.no_schedule ? 1 : 0;
  g.no_execute += d.no_execute ? 1 : 0;
  g.unhealthy += unhealthy ? 1 : 0;
}

std::vector<prometheus::MetricFamily> DeviceCollector::Families() const {
  GaugeTable published("dra_controller_devices_published",
                       "Devices published in the newest generation of their pool", kLabels);
  GaugeTable allocatable("dra_controller_devices_allocatable",
                         "Published devices in a complete pool without a NoSchedule or NoExecute "
                         "taint (allocated ones included)",
                         kLabels);
  GaugeTable allocated("dra_controller_devices_allocated",
                       "Devices named in at least one ResourceClaim allocation", kLabels);
  std::vector<std::string> taint_labels = kLabels;
  taint_labels.push_back("effect");
  GaugeTable tainted("dra_controller_devices_tainted",
                     "Devices carrying a taint with this effect (from the slice or a "
                     "DeviceTaintRule)",
                     taint_labels);
  GaugeTable sick("dra_controller_devices_unhealthy",
                  "Devices the device-health feature holds unhealthy", kLabels);
  for (GaugeTable* table : {&published, &allocatable, &allocated, &sick}) {
    table->Reserve(groups_.size());
  }
  tainted.Reserve(2 * groups_.size());
  // Keys join the labels with '\0', so their order is the labels' order.
  std::vector<const std::pair<const std::string, Group>*> ordered;
  ordered.reserve(groups_.size());
  for (const auto& entry : groups_) ordered.push_back(&entry);
  std::sort(ordered.begin(), ordered.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : ordered) {
    const Group& g = entry->second;
    published.Append(g.labels, g.published);
    allocatable.Append(g.labels, g.allocatable);
    allocated.Append(g.labels, g.allocated);
    sick.Append(g.labels, g.unhealthy);
    std::vector<std::string> with_effect = g.labels;
    with_effect.push_back("NoSchedule");
    tainted.Append(with_effect, g.no_schedule);
    with_effect.back() = "NoExecute";
    tainted.Append(std::move(with_effect), g.no_execute);
  }
  return GaugeTable::BuildAll({&published, &allocatable, &allocated, &tainted, &sick});
}

std::map<std::string, ClassTotals> DeviceCollector::TotalsByClass() const {
  std::map<std::string, ClassTotals> totals;
  for (const auto& [key, g] : groups_) {
    if (g.labels[3].empty()) continue;
    ClassTotals& t = totals[g.labels[3]];
    t.published += g.published;
    t.allocatable += g.allocatable;
    t.allocated += g.allocated;
  }
  return totals;
}

}  // namespace dra::metrics
