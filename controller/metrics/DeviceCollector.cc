#include "controller/metrics/DeviceCollector.h"

#include <algorithm>

#include "controller/metrics/TextExposition.h"

namespace dra::metrics {
namespace {

const std::vector<std::string> kLabels = {"driver", "pool", "node", "device_class"};

}  // namespace

const std::vector<inventory::DeviceBlocker>& SortedReasons() {
  static const std::vector<inventory::DeviceBlocker> sorted = [] {
    const auto& all = inventory::DeviceState::Blockers();
    std::vector<inventory::DeviceBlocker> out(all.begin(), all.end());
    std::sort(out.begin(), out.end(), [](auto a, auto b) {
      return inventory::DeviceState::ReasonLabel(a) < inventory::DeviceState::ReasonLabel(b);
    });
    return out;
  }();
  return sorted;
}

DeviceCollector::DeviceCollector(const std::vector<std::string>& unhealthy)
    : unhealthy_(unhealthy.begin(), unhealthy.end()) {}

void DeviceCollector::Add(const inventory::DeviceVisit& d) {
  bool sick = !unhealthy_.empty() && unhealthy_.contains(d.slice.driver + "/" + d.slice.pool.name +
                                                         "/" + d.device.name.str());
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
  inventory::DeviceBlocker blocker = d.state.BlockerFor(unusable);
  ++g.published;
  g.allocatable += blocker == inventory::DeviceBlocker::kNone ? 1 : 0;
  g.allocated += d.state.allocated() ? 1 : 0;
  ++g.blockers[static_cast<size_t>(blocker)];
  g.no_schedule[0] += d.driver_taints.no_schedule ? 1 : 0;
  g.no_schedule[1] += d.rule_taints.no_schedule ? 1 : 0;
  g.no_execute[0] += d.driver_taints.no_execute ? 1 : 0;
  g.no_execute[1] += d.rule_taints.no_execute ? 1 : 0;
  g.unhealthy += unhealthy ? 1 : 0;
}

// Every family has one series per group (tainted: four), so the groups are
// sorted once and written family by family without building tables.
void DeviceCollector::Render(std::string& out) const {
  // Keys join the labels with '\0', so their order is the labels' order.
  std::vector<const std::pair<const std::string, Group>*> ordered;
  ordered.reserve(groups_.size());
  for (const auto& entry : groups_) ordered.push_back(&entry);
  std::sort(ordered.begin(), ordered.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  TextExposition text(out);
  auto family = [&](const char* name, const char* help, int Group::*count) {
    text.Family(name, help, kLabels);
    for (const auto* entry : ordered) text.Sample(entry->second.labels, entry->second.*count);
  };
  family("dra_controller_devices_published",
         "Devices published in the newest generation of their pool", &Group::published);
  family("dra_controller_devices_allocatable",
         "Devices the scheduler could allocate now to a request without tolerations (not "
         "allocated, counters and capacity left, complete valid pool, no NoSchedule or "
         "NoExecute taint)",
         &Group::allocatable);
  family("dra_controller_devices_allocated",
         "Devices named in at least one ResourceClaim allocation", &Group::allocated);
  std::vector<std::string> reason_labels = kLabels;
  reason_labels.push_back("reason");
  text.Family("dra_controller_devices_unavailable",
              "Devices the scheduler cannot allocate now, by the first reason (series with a "
              "device only)",
              reason_labels);
  for (const auto* entry : ordered) {
    for (inventory::DeviceBlocker blocker : SortedReasons()) {
      int count = entry->second.blockers[static_cast<size_t>(blocker)];
      if (count > 0) {
        text.Sample(entry->second.labels, inventory::DeviceState::ReasonLabel(blocker), count);
      }
    }
  }
  std::vector<std::string> taint_labels = kLabels;
  taint_labels.push_back("effect");
  taint_labels.push_back("source");
  text.Family("dra_controller_devices_tainted",
              "Devices carrying a taint with this effect from this source (driver: published "
              "in the ResourceSlice; rule: a DeviceTaintRule)",
              taint_labels);
  for (const auto* entry : ordered) {  // "NoExecute" sorts before "NoSchedule"
    const Group& g = entry->second;
    text.Sample(g.labels, {"NoExecute", "driver"}, g.no_execute[0]);
    text.Sample(g.labels, {"NoExecute", "rule"}, g.no_execute[1]);
    text.Sample(g.labels, {"NoSchedule", "driver"}, g.no_schedule[0]);
    text.Sample(g.labels, {"NoSchedule", "rule"}, g.no_schedule[1]);
  }
  family("dra_controller_devices_unhealthy", "Devices the device-health feature holds unhealthy",
         &Group::unhealthy);
}

std::map<std::string, ClassTotals> DeviceCollector::TotalsByClass() const {
  std::map<std::string, ClassTotals> totals;
  for (const auto& [key, g] : groups_) {
    if (g.labels[3].empty()) continue;
    ClassTotals& t = totals[g.labels[3]];
    t.published += g.published;
    t.allocatable += g.allocatable;
    t.allocated += g.allocated;
    for (size_t i = 0; i < t.blockers.size(); ++i) t.blockers[i] += g.blockers[i];
  }
  return totals;
}

}  // namespace dra::metrics
