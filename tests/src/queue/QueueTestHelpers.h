#pragma once

#include <prometheus/client_metric.h>
#include <prometheus/registry.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>

namespace kube::testing {

// Polls `condition` until it holds or `timeout` (real time) passes; the
// deadline only bounds a failing test, it never decides a passing one.
inline bool Eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

using LabelMap = std::map<std::string, std::string>;

// The series of `family` whose labels are exactly `labels`, from a fresh
// Collect().
inline std::optional<prometheus::ClientMetric> FindSeries(prometheus::Registry& registry,
                                                          const std::string& family,
                                                          const LabelMap& labels) {
  for (const prometheus::MetricFamily& collected : registry.Collect()) {
    if (collected.name != family) continue;
    for (const prometheus::ClientMetric& metric : collected.metric) {
      LabelMap actual;
      for (const auto& label : metric.label) actual[label.name] = label.value;
      if (actual == labels) return metric;
    }
  }
  return std::nullopt;
}

inline double CounterValue(prometheus::Registry& registry, const std::string& family,
                           const LabelMap& labels) {
  auto series = FindSeries(registry, family, labels);
  return series ? series->counter.value : -1;
}

inline double GaugeValue(prometheus::Registry& registry, const std::string& family,
                         const LabelMap& labels) {
  auto series = FindSeries(registry, family, labels);
  return series ? series->gauge.value : -1;
}

inline std::optional<prometheus::ClientMetric::Histogram> HistogramValue(
    prometheus::Registry& registry, const std::string& family, const LabelMap& labels) {
  auto series = FindSeries(registry, family, labels);
  if (!series) return std::nullopt;
  return series->histogram;
}

inline int CountFamilies(prometheus::Registry& registry, const std::string& family) {
  const auto collected = registry.Collect();
  return static_cast<int>(std::count_if(collected.begin(), collected.end(),
                                        [&](const auto& f) { return f.name == family; }));
}

}  // namespace kube::testing
