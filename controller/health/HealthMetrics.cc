#include "controller/health/HealthMetrics.h"

#include "src/metrics/MetricFamilyCache.h"

namespace dra::health {
namespace {

template <typename T>
T* Or(kube::Result<T*> family) {
  return family.ok() ? *family : nullptr;
}

}  // namespace

HealthMetrics::HealthMetrics(std::shared_ptr<prometheus::Registry> registry)
    : registry_(std::move(registry)) {
  if (!registry_) return;
  using kube::MetricFamilyCache;
  applied_ = Or(MetricFamilyCache::Counter(registry_, "dra_controller_health_taints_applied_total",
                                           "DeviceTaintRules written with a new effect, by effect",
                                           {"effect"}));
  removed_ =
      Or(MetricFamilyCache::Counter(registry_, "dra_controller_health_taints_removed_total",
                                    "DeviceTaintRules removed, by their last effect", {"effect"}));
  tainted_ = Or(MetricFamilyCache::Gauge(
      registry_, "dra_controller_health_tainted_devices",
      "Devices under a device-health taint, by effect and reason", {"effect", "reason"}));
  objects_ = Or(MetricFamilyCache::Gauge(registry_, "dra_controller_health_objects",
                                         "DeviceHealth objects, by spec.state", {"state"}));
  auto held = MetricFamilyCache::Gauge(registry_, "dra_controller_health_storm_guard_held_devices",
                                       "Devices kept at NoSchedule by the storm guard", {});
  if (held.ok()) held_ = &(*held)->Add({});
  auto latency = MetricFamilyCache::Histogram(
      registry_, "dra_controller_health_rule_write_seconds",
      "Seconds from a DeviceHealth change seen by the watch to its DeviceTaintRule written", {});
  if (latency.ok()) {
    latency_ = &(*latency)->Add(
        {}, prometheus::Histogram::BucketBoundaries{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5});
  }
}

void HealthMetrics::Applied(const std::string& effect) {
  if (applied_) applied_->Add({{"effect", effect}}).Increment();
}

void HealthMetrics::Removed(const std::string& effect) {
  if (removed_) removed_->Add({{"effect", effect}}).Increment();
}

void HealthMetrics::WriteLatency(double seconds) {
  if (latency_) latency_->Observe(seconds);
}

void HealthMetrics::Record(const std::string& key, HealthSnapshot snapshot) {
  std::lock_guard lock(mu_);
  snapshots_[key] = std::move(snapshot);
  RecomputeLocked();
}

void HealthMetrics::Forget(const std::string& key) {
  std::lock_guard lock(mu_);
  snapshots_.erase(key);
  RecomputeLocked();
}

// spec.reason is free text: a series is kept only while it counts a device,
// so the series are bounded by the DeviceHealths, not by every reason seen.
void HealthMetrics::SetTaintedLocked(
    const std::map<std::pair<std::string, std::string>, int>& now) {
  for (const auto& [labels, n] : now) {
    if (n > 0) tainted_seen_.insert(labels);
  }
  for (auto it = tainted_seen_.begin(); it != tainted_seen_.end();) {
    auto& gauge = tainted_->Add({{"effect", it->first}, {"reason", it->second}});
    auto found = now.find(*it);
    if (found == now.end() || found->second == 0) {
      tainted_->Remove(&gauge);
      it = tainted_seen_.erase(it);
    } else {
      gauge.Set(found->second);
      ++it;
    }
  }
}

void HealthMetrics::RecomputeLocked() {
  if (!registry_) return;
  std::map<std::pair<std::string, std::string>, int> tainted;
  std::map<std::string, int> states;
  int held = 0;
  for (const auto& [key, s] : snapshots_) {
    if (!s.effect.empty()) tainted[{s.effect, s.reason}] += s.devices;
    ++states[s.state];
    held += s.held_devices;
  }
  for (const auto& [state, n] : states) states_seen_.insert(state);
  if (tainted_) SetTaintedLocked(tainted);
  if (objects_) {
    for (const auto& state : states_seen_) {
      auto it = states.find(state);
      objects_->Add({{"state", state}}).Set(it == states.end() ? 0 : it->second);
    }
  }
  if (held_) held_->Set(held);
}

}  // namespace dra::health
