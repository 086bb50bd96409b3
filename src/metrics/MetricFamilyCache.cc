#include "src/metrics/MetricFamilyCache.h"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <variant>

namespace kube {
namespace {

using AnyFamily =
    std::variant<prometheus::Family<prometheus::Counter>*, prometheus::Family<prometheus::Gauge>*,
                 prometheus::Family<prometheus::Histogram>*>;

struct Entry {
  AnyFamily family;
  MetricFamilyCache::Description description;
};
using FamiliesByName = std::map<std::string, Entry>;

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

std::string Joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ",") + name;
  return "{" + out + "}";
}

}  // namespace

template <typename T, typename Builder>
Result<prometheus::Family<T>*> MetricFamilyCache::GetOrRegister(const RegistryPtr& registry,
                                                                Description description,
                                                                Builder builder) {
  if (!registry) return Status(StatusCode::kInvalidArgument, "no metrics registry given");
  const std::string name = description.name;
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> guard(cache.mutex);
  cache.DropDestroyedRegistries();
  FamiliesByName& families = cache.registries[std::weak_ptr<prometheus::Registry>(registry)];
  if (auto it = families.find(name); it != families.end()) {
    auto* family = std::get_if<prometheus::Family<T>*>(&it->second.family);
    if (family == nullptr) {
      return Status(StatusCode::kAlreadyExists,
                    "metric family " + name + " is already registered with another type");
    }
    if (it->second.description.labels != description.labels) {
      return Status(StatusCode::kAlreadyExists,
                    "metric family " + name + " is already registered with other label names");
    }
    return *family;
  }
  try {
    prometheus::Family<T>& family = builder.Name(name).Help(description.help).Register(*registry);
    families.emplace(name, Entry{&family, std::move(description)});
    return &family;
  } catch (const std::exception& e) {
    return Status(StatusCode::kAlreadyExists,
                  "cannot register metric family " + name + ": " + e.what());
  }
}

Result<prometheus::Family<prometheus::Counter>*> MetricFamilyCache::Counter(
    const RegistryPtr& registry, const std::string& name, const std::string& help,
    LabelNames labels) {
  return GetOrRegister<prometheus::Counter>(registry, {name, "counter", help, std::move(labels)},
                                            prometheus::BuildCounter());
}

Result<prometheus::Family<prometheus::Gauge>*> MetricFamilyCache::Gauge(const RegistryPtr& registry,
                                                                        const std::string& name,
                                                                        const std::string& help,
                                                                        LabelNames labels) {
  return GetOrRegister<prometheus::Gauge>(registry, {name, "gauge", help, std::move(labels)},
                                          prometheus::BuildGauge());
}

Result<prometheus::Family<prometheus::Histogram>*> MetricFamilyCache::Histogram(
    const RegistryPtr& registry, const std::string& name, const std::string& help,
    LabelNames labels) {
  return GetOrRegister<prometheus::Histogram>(
      registry, {name, "histogram", help, std::move(labels)}, prometheus::BuildHistogram());
}

std::vector<MetricFamilyCache::Description> MetricFamilyCache::Describe(
    const RegistryPtr& registry) {
  std::vector<Description> described;
  if (!registry) return described;
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> guard(cache.mutex);
  auto it = cache.registries.find(std::weak_ptr<prometheus::Registry>(registry));
  if (it == cache.registries.end()) return described;
  for (const auto& [name, entry] : it->second) described.push_back(entry.description);
  return described;  // the map keeps them sorted by name
}

Status MetricFamilyCache::CheckLabels(const RegistryPtr& registry) {
  if (!registry) return Status::Ok();
  std::map<std::string, std::set<std::string>> declared;
  for (const auto& family : Describe(registry)) {
    declared[family.name] = {family.labels.begin(), family.labels.end()};
  }
  std::string problems;
  for (const auto& family : registry->Collect()) {
    auto want = declared.find(family.name);
    if (want == declared.end()) {
      problems += "; " + family.name + " was registered without declaring its labels";
      continue;
    }
    for (const auto& metric : family.metric) {
      std::set<std::string> names;
      for (const auto& label : metric.label) names.insert(label.name);
      if (names == want->second) continue;
      problems += "; " + family.name + " has a series labelled " + Joined(names) + ", declared " +
                  Joined(want->second);
      break;
    }
  }
  if (problems.empty()) return Status::Ok();
  return Status(StatusCode::kInvalid, problems.substr(2));
}

}  // namespace kube
