#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/api/Quantity.h"
#include "src/base/Result.h"

namespace dra::api {

// A named set of counters: an entry of a slice's `sharedCounters`
// ({name, counters: {c: {value}}}) or of a device's `consumesCounters`
// ({counterSet, counters: {c: {value}}}), resource.k8s.io/v1.
struct CounterSet {
  std::string name;
  std::vector<std::pair<std::string, kube::Quantity>> counters;

  const kube::Quantity* Find(std::string_view counter) const;

  // `name_key` is "name" (sharedCounters) or "counterSet" (consumesCounters).
  // Errors: no name. A counter whose value is not a valid quantity is
  // skipped and named in `warnings` (prefixed with `path`).
  static kube::Result<CounterSet> FromJson(simdjson::dom::element object, std::string_view name_key,
                                           const std::string& path,
                                           std::vector<std::string>& warnings);

  friend bool operator==(const CounterSet&, const CounterSet&) = default;
};

}  // namespace dra::api
