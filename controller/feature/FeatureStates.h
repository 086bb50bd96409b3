#pragma once

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace dra::feature {

// What each feature of `run` does on this cluster, as
// dra_controller_feature_enabled{feature,reason}: 1 when it does its job, 0
// when it is off or only reports, with one CamelCase word saying why
// (Enforced, TaintRulesNotServed, NotSelected, ...). One series per feature;
// a later report replaces the earlier one.
class FeatureStates {
 public:
  struct State {
    bool enabled = false;
    std::string reason;
  };

  // Without a registry the states are kept but not exported.
  explicit FeatureStates(const std::shared_ptr<prometheus::Registry>& registry);

  void On(const std::string& feature, const std::string& reason);
  void Off(const std::string& feature, const std::string& reason);
  std::optional<State> Get(const std::string& feature) const;

  // Registers the family (for the generated metrics reference).
  static prometheus::Family<prometheus::Gauge>* Register(
      const std::shared_ptr<prometheus::Registry>& registry);

 private:
  void Set(const std::string& feature, State state);

  prometheus::Family<prometheus::Gauge>* family_ = nullptr;
  mutable std::mutex mu_;
  std::map<std::string, State> states_;
  std::map<std::string, prometheus::Gauge*> series_;
};

}  // namespace dra::feature
