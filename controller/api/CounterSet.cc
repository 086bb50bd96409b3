#include "controller/api/CounterSet.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {

const kube::Quantity* CounterSet::Find(std::string_view counter) const {
  for (const auto& [name, value] : counters)
    if (name == counter) return &value;
  return nullptr;
}

kube::Result<CounterSet> CounterSet::FromJson(simdjson::dom::element object,
                                              std::string_view name_key, const std::string& path,
                                              std::vector<std::string>& warnings) {
  CounterSet set;
  set.name = kube::json::StringOr(object, name_key);
  if (set.name.empty()) {
    return kube::Status(kube::StatusCode::kParseError, path + ": no " + std::string(name_key));
  }
  simdjson::dom::element counters = kube::json::Field(object, "counters");
  set.counters.reserve(json::Size(counters));
  json::ForEachMember(counters, [&](std::string_view key, simdjson::dom::element value) {
    auto quantity = json::QuantityValue(kube::json::Field(value, "value"));
    if (quantity.has_value()) {
      set.counters.emplace_back(std::string(key), *quantity);
    } else {
      warnings.push_back(path + ".counters[" + std::string(key) + "]: invalid value; skipped");
    }
  });
  return set;
}

}  // namespace dra::api
