#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>
#include <vector>

#include "src/base/Result.h"

namespace kube {

// Registers each metric family once per registry and returns that same family
// to every later caller, so several queues or controllers can share a family
// (told apart by labels) even on a registry built with InsertBehavior::Throw.
// The families live as long as their registry; callers keep the registry
// alive while they use them.
//
// Each family declares the label names its series carry, so the families of
// a registry can be listed (the generated metrics reference) before any
// series exists; CheckLabels() holds the series to what was declared.
class MetricFamilyCache {
 public:
  using RegistryPtr = std::shared_ptr<prometheus::Registry>;
  using LabelNames = std::vector<std::string>;

  struct Description {
    std::string name;
    std::string type;  // "counter", "gauge" or "histogram"
    std::string help;
    LabelNames labels;
  };

  static Result<prometheus::Family<prometheus::Counter>*> Counter(const RegistryPtr& registry,
                                                                  const std::string& name,
                                                                  const std::string& help,
                                                                  LabelNames labels);
  static Result<prometheus::Family<prometheus::Gauge>*> Gauge(const RegistryPtr& registry,
                                                              const std::string& name,
                                                              const std::string& help,
                                                              LabelNames labels);
  static Result<prometheus::Family<prometheus::Histogram>*> Histogram(const RegistryPtr& registry,
                                                                      const std::string& name,
                                                                      const std::string& help,
                                                                      LabelNames labels);

  // Every family registered on `registry` through this cache, sorted by name.
  static std::vector<Description> Describe(const RegistryPtr& registry);
  // An error naming each series of `registry` whose label names are not the
  // ones its family declared.
  static Status CheckLabels(const RegistryPtr& registry);

 private:
  template <typename T, typename Builder>
  static Result<prometheus::Family<T>*> GetOrRegister(const RegistryPtr& registry,
                                                      Description description, Builder builder);
};

}  // namespace kube
