#include "src/metrics/MetricFamilyCache.h"

#include <exception>
#include <map>
#include <mutex>
#include <variant>

namespace kube {
namespace {

using AnyFamily =
    std::variant<prometheus::Family<prometheus::Counter>*, prometheus::Family<prometheus::Gauge>*,
                 prometheus::Family<prometheus::Histogram>*>;
using FamiliesByName = std::map<std::string, AnyFamily>;

// Keyed by the registry's control block (owner_less): a registry created at
// the address of a destroyed one is still a different key.
struct Cache {
  std::mutex mutex;
  std::map<std::weak_ptr<prometheus::Registry>, FamiliesByName, std::owner_less<>> registries;

  void DropDestroyedRegistries() {
    std::erase_if(registries, [](const auto& entry) { return entry.first.expired(); });
  }
};

Cache& TheCache() {
  // Never destroyed: metrics may still be touched by threads during exit.
  static Cache* cache = new Cache;
  return *cache;
}

}  // namespace

template <typename T, typename Builder>
Result<prometheus::Family<T>*> MetricFamilyCache::GetOrRegister(const RegistryPtr& registry,
                                                                const std::string& name,
                                                                const std::string& help,
                                                                Builder builder) {
  if (!registry) return Status(StatusCode::kInvalidArgument, "no metrics registry given");
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> guard(cache.mutex);
  cache.DropDestroyedRegistries();
  FamiliesByName& families = cache.registries[std::weak_ptr<prometheus::Registry>(registry)];
  if (auto it = families.find(name); it != families.end()) {
    if (auto* family = std::get_if<prometheus::Family<T>*>(&it->second)) return *family;
    return Status(StatusCode::kAlreadyExists,
                  "metric family " + name + " is already registered with another type");
  }
  try {
    prometheus::Family<T>& family = builder.Name(name).Help(help).Register(*registry);
    families.emplace(name, &family);
    return &family;
  } catch (const std::exception& e) {
    return Status(StatusCode::kAlreadyExists,
                  "cannot register metric family " + name + ": " + e.what());
  }
}

Result<prometheus::Family<prometheus::Counter>*> MetricFamilyCache::Counter(
    const RegistryPtr& registry, const std::string& name, const std::string& help) {
  return GetOrRegister<prometheus::Counter>(registry, name, help, prometheus::BuildCounter());
}

Result<prometheus::Family<prometheus::Gauge>*> MetricFamilyCache::Gauge(const RegistryPtr& registry,
                                                                        const std::string& name,
                                                                        const std::string& help) {
  return GetOrRegister<prometheus::Gauge>(registry, name, help, prometheus::BuildGauge());
}

Result<prometheus::Family<prometheus::Histogram>*> MetricFamilyCache::Histogram(
    const RegistryPtr& registry, const std::string& name, const std::string& help) {
  return GetOrRegister<prometheus::Histogram>(registry, name, help, prometheus::BuildHistogram());
}

}  // namespace kube
