#include "controller/metrics/RegistryMirror.h"

#include <set>

#include "src/metrics/MetricFamilyCache.h"

namespace dra::metrics {

RegistryMirror::RegistryMirror(std::shared_ptr<prometheus::Registry> registry,
                               std::shared_ptr<const prometheus::Collectable> source)
    : registry_(std::move(registry)), source_(std::move(source)) {}

kube::Status RegistryMirror::Refresh() {
  std::vector<prometheus::MetricFamily> families = source_->Collect();
  std::lock_guard lock(mu_);
  kube::Status result = kube::Status::Ok();
  std::set<std::string> seen;
  for (const auto& family : families) {
    seen.insert(family.name);
    kube::Status status = Apply(family);
    if (!status.ok() && result.ok()) result = status;
  }
  for (auto& [name, mirrored] : families_) {
    if (seen.contains(name)) continue;
    for (auto& [labels, gauge] : mirrored.series) mirrored.family->Remove(gauge);
    mirrored.series.clear();
  }
  return result;
}

kube::Status RegistryMirror::Apply(const prometheus::MetricFamily& family) {
  Mirrored& mirrored = families_[family.name];
  if (mirrored.family == nullptr) {
    auto registered = kube::MetricFamilyCache::Gauge(registry_, family.name, family.help);
    if (!registered.ok()) return registered.status();
    mirrored.family = *registered;
  }
  std::map<Labels, prometheus::Gauge*> now;
  for (const auto& metric : family.metric) {
    Labels labels;
    for (const auto& label : metric.label) labels[label.name] = label.value;
    auto it = mirrored.series.find(labels);
    prometheus::Gauge* gauge = nullptr;
    if (it != mirrored.series.end()) {
      gauge = it->second;
      mirrored.series.erase(it);
    } else {
      try {
        gauge = &mirrored.family->Add(labels);
      } catch (const std::exception& e) {
        return kube::Status(kube::StatusCode::kInvalidArgument, family.name + ": " + e.what());
      }
    }
    gauge->Set(metric.gauge.value);
    now.emplace(std::move(labels), gauge);
  }
  for (auto& [labels, gauge] : mirrored.series) mirrored.family->Remove(gauge);
  mirrored.series = std::move(now);
  return kube::Status::Ok();
}

}  // namespace dra::metrics
