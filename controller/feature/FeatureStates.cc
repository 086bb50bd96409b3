#include "controller/feature/FeatureStates.h"

#include "src/metrics/MetricFamilyCache.h"

namespace dra::feature {

FeatureStates::FeatureStates(const std::shared_ptr<prometheus::Registry>& registry)
    : family_(registry ? Register(registry) : nullptr) {}

prometheus::Family<prometheus::Gauge>* FeatureStates::Register(
    const std::shared_ptr<prometheus::Registry>& registry) {
  auto family = kube::MetricFamilyCache::Gauge(
      registry, "dra_controller_feature_enabled",
      "1 when a feature of run does its job on this cluster, 0 when it is off or only reports; "
      "reason says why",
      {"feature", "reason"});
  return family.ok() ? *family : nullptr;
}

void FeatureStates::On(const std::string& feature, const std::string& reason) {
  Set(feature, {true, reason});
}

void FeatureStates::Off(const std::string& feature, const std::string& reason) {
  Set(feature, {false, reason});
}

std::optional<FeatureStates::State> FeatureStates::Get(const std::string& feature) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = states_.find(feature);
  if (it == states_.end()) return std::nullopt;
  return it->second;
}

void FeatureStates::Set(const std::string& feature, State state) {
  std::lock_guard<std::mutex> lock(mu_);
  states_[feature] = state;
  if (family_ == nullptr) return;
  if (auto old = series_.find(feature); old != series_.end()) family_->Remove(old->second);
  prometheus::Gauge& gauge = family_->Add({{"feature", feature}, {"reason", state.reason}});
  gauge.Set(state.enabled ? 1 : 0);
  series_[feature] = &gauge;
}

}  // namespace dra::feature
