#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace dra::health {

// What one DeviceHealth contributes to the gauges.
struct HealthSnapshot {
  std::string state;     // spec.state
  std::string effect;    // effect in force ("" without a rule)
  std::string reason;    // spec.reason (the taint's reason)
  int devices = 0;       // devices its rule covers
  int held_devices = 0;  // devices the storm guard keeps from NoExecute
};

// The device-health metrics (all registered through MetricFamilyCache):
//   dra_controller_health_taints_applied_total{effect}     counter
//   dra_controller_health_taints_removed_total{effect}     counter
//   dra_controller_health_tainted_devices{effect,reason}   gauge, a series only while > 0
//   dra_controller_health_objects{state}                   gauge
//   dra_controller_health_storm_guard_held_devices         gauge
//   dra_controller_health_rule_write_seconds               histogram: DeviceHealth
//       change seen by the watch -> its DeviceTaintRule written (or deleted)
// In dry-run the counters and gauges count what would have been done.
// Without a registry every call is a no-op. Thread-safe.
class HealthMetrics {
 public:
  explicit HealthMetrics(std::shared_ptr<prometheus::Registry> registry);

  void Applied(const std::string& effect);
  void Removed(const std::string& effect);
  void WriteLatency(double seconds);
  void Record(const std::string& key, HealthSnapshot snapshot);
  void Forget(const std::string& key);

 private:
  void RecomputeLocked();
  void SetTaintedLocked(const std::map<std::pair<std::string, std::string>, int>& now);

  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* applied_ = nullptr;
  prometheus::Family<prometheus::Counter>* removed_ = nullptr;
  prometheus::Family<prometheus::Gauge>* tainted_ = nullptr;
  prometheus::Family<prometheus::Gauge>* objects_ = nullptr;
  prometheus::Gauge* held_ = nullptr;
  prometheus::Histogram* latency_ = nullptr;

  std::mutex mu_;
  std::map<std::string, HealthSnapshot> snapshots_;
  std::set<std::pair<std::string, std::string>> tainted_seen_;  // label sets with a series
  std::set<std::string> states_seen_;
};

}  // namespace dra::health
