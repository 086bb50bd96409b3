#include "controller/api/DeviceCapacity.h"

#include <algorithm>

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::api {
namespace {

// An exact Quantity of `nanos` nano-units ("<n>n"); nullopt out of range.
std::optional<kube::Quantity> FromNanos(__int128 nanos) {
  bool negative = nanos < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(nanos) : nanos;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  auto quantity = kube::Quantity::Parse((negative ? "-" : "") + digits + "n");
  if (!quantity.ok()) return std::nullopt;
  return *quantity;
}

// validRange rounding: up to min, then up to the next step above min
// (consumable_capacity.go, roundUpRange).
std::optional<kube::Quantity> RoundUpRange(const CapacityPolicy& policy,
                                           const kube::Quantity& requested) {
  if (requested < *policy.min) return *policy.min;
  if (!policy.step || policy.step->Sign() <= 0) return requested;
  __int128 step = policy.step->nanos();
  __int128 over = requested.nanos() - policy.min->nanos();
  __int128 steps = over / step + (over % step != 0 ? 1 : 0);
  // Quantities stay below 2^63 units (< 2^93 nanos), so this cannot overflow.
  if (steps > (static_cast<__int128>(1) << 100) / step) return std::nullopt;
  return FromNanos(policy.min->nanos() + steps * step);
}

// The policy's validRange or validValues reject `value` (violatesPolicy).
bool Violates(const CapacityPolicy& policy, const kube::Quantity& value) {
  if (policy.default_value && value == *policy.default_value) return false;
  if (policy.min || policy.max || policy.step) {
    if (policy.max && value > *policy.max) return true;
    if (policy.step && policy.min && policy.step->Sign() > 0) {
      return (value.nanos() - policy.min->nanos()) % policy.step->nanos() != 0;
    }
    return false;
  }
  if (!policy.valid_values.empty()) {
    return std::find(policy.valid_values.begin(), policy.valid_values.end(), value) ==
           policy.valid_values.end();
  }
  return false;
}

}  // namespace

std::optional<kube::Quantity> CapacityPolicy::Consumption(
    const CapacityPolicy* policy, const kube::Quantity& value,
    const std::optional<kube::Quantity>& requested) {
  std::optional<kube::Quantity> consumed;
  if (!requested) {
    consumed = policy != nullptr && policy->default_value ? *policy->default_value : value;
  } else if (policy == nullptr) {
    consumed = requested;
  } else if (policy->min) {
    consumed = RoundUpRange(*policy, *requested);
  } else if (!policy->valid_values.empty()) {
    consumed = *requested;
    for (const auto& valid : policy->valid_values) {
      if (*requested <= valid) {
        consumed = valid;
        break;
      }
    }
  } else {
    consumed = requested;
  }
  if (!consumed || (policy != nullptr && Violates(*policy, *consumed))) return std::nullopt;
  return consumed;
}

bool CapacityPolicy::FromJson(simdjson::dom::element object, CapacityPolicy& out) {
  bool ok = true;
  auto read = [&](simdjson::dom::element e, std::optional<kube::Quantity>& slot) {
    if (e.is_null()) return;
    slot = json::QuantityValue(e);
    ok = ok && slot.has_value();
  };
  read(kube::json::Field(object, "default"), out.default_value);
  simdjson::dom::element range = kube::json::Field(object, "validRange");
  read(kube::json::Field(range, "min"), out.min);
  read(kube::json::Field(range, "max"), out.max);
  read(kube::json::Field(range, "step"), out.step);
  json::ForEachElement(kube::json::Field(object, "validValues"), [&](simdjson::dom::element v) {
    auto quantity = json::QuantityValue(v);
    if (quantity) {
      out.valid_values.push_back(*quantity);
    } else {
      ok = false;
    }
  });
  std::sort(out.valid_values.begin(), out.valid_values.end());
  return ok;
}

}  // namespace dra::api
