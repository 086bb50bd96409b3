#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>

#include "src/base/Result.h"

namespace kube {

// Registers each metric family once per registry and returns that same family
// to every later caller, so several queues or controllers can share a family
// (told apart by labels) even on a registry built with InsertBehavior::Throw.
// The families live as long as their registry; callers keep the registry
// alive while they use them.
class MetricFamilyCache {
 public:
  using RegistryPtr = std::shared_ptr<prometheus::Registry>;

  static Result<prometheus::Family<prometheus::Counter>*> Counter(const RegistryPtr& registry,
                                                                  const std::string& name,
                                                                  const std::string& help);
  static Result<prometheus::Family<prometheus::Gauge>*> Gauge(const RegistryPtr& registry,
                                                              const std::string& name,
                                                              const std::string& help);
  static Result<prometheus::Family<prometheus::Histogram>*> Histogram(const RegistryPtr& registry,
                                                                      const std::string& name,
                                                                      const std::string& help);

 private:
  template <typename T, typename Builder>
  static Result<prometheus::Family<T>*> GetOrRegister(const RegistryPtr& registry,
                                                      const std::string& name,
                                                      const std::string& help, Builder builder);
};

}  // namespace kube
