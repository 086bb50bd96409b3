#pragma once

#include <simdjson.h>

#include <optional>
#include <string>
#include <vector>

#include "src/api/Quantity.h"

namespace dra::api {

// A capacity's `requestPolicy` (resource.k8s.io/v1 CapacityRequestPolicy):
// what one allocation of a shared device consumes of it.
struct CapacityPolicy {
  std::optional<kube::Quantity> default_value;  // `default`
  std::vector<kube::Quantity> valid_values;     // ascending, as the API requires
  std::optional<kube::Quantity> min;            // validRange
  std::optional<kube::Quantity> max;
  std::optional<kube::Quantity> step;

  // What an allocation asking for `requested` (nullopt: nothing asked)
  // consumes of a capacity of `value`, as the v1.37.2 allocator computes it
  // (structured/internal/*/consumable_capacity.go, calculateConsumedCapacity):
  // nothing asked -> `default`, else the whole value; asked -> rounded up to
  // validRange.min and its steps, or to the next valid value. nullopt when
  // the result violates the policy (above max, not a valid value).
  static std::optional<kube::Quantity> Consumption(const CapacityPolicy* policy,
                                                   const kube::Quantity& value,
                                                   const std::optional<kube::Quantity>& requested);

  // {default, validValues, validRange: {min, max, step}}; values that are not
  // quantities are left unset and reported by returning false.
  static bool FromJson(simdjson::dom::element object, CapacityPolicy& out);

  friend bool operator==(const CapacityPolicy&, const CapacityPolicy&) = default;
};

}  // namespace dra::api
