#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "controller/api/CounterSet.h"
#include "controller/api/DeviceCapacity.h"
#include "controller/api/DeviceTaint.h"
#include "controller/api/NodeSelector.h"
#include "src/api/Quantity.h"
#include "src/base/CompactVector.h"
#include "src/base/InternedString.h"
#include "src/base/Result.h"

namespace dra::api {

// A `version` attribute (semver text), distinct from a plain string.
struct VersionString {
  kube::InternedString text;
  friend bool operator==(const VersionString&, const VersionString&) = default;
};

// Strings are interned: a fleet's devices repeat the same few names and
// values, and each distinct text is then stored once (16 bytes a value).
using AttributeValue = std::variant<int64_t, bool, kube::InternedString, VersionString>;

// One device of a ResourceSlice (resource.k8s.io/v1 Device), reduced to what
// allocation decisions and health handling need. Keys are kept as written
// (unqualified names imply the slice's driver domain; see
// ResourceSlice::SplitAttributeKey).
struct Device {
  kube::InternedString name;
  // CompactVector (one pointer): a fleet caches tens of thousands of
  // devices, and most of these lists are short or empty.
  kube::CompactVector<std::pair<kube::InternedString, AttributeValue>> attributes;
  kube::CompactVector<std::pair<kube::InternedString, kube::Quantity>> capacity;
  // Request policies of `capacity`, by the same names; only those that set one.
  kube::CompactVector<std::pair<std::string, CapacityPolicy>> capacity_policies;
  kube::CompactVector<DeviceTaint> taints;
  kube::CompactVector<CounterSet> consumes_counters;  // counterSet name -> counters consumed
  kube::InternedString node_name;                     // only with perDeviceNodeSelection
  // Only with perDeviceNodeSelection (parse errors kept); shared so copies stay cheap.
  std::shared_ptr<const NodeSelector> node_selector;
  bool allow_multiple_allocations = false;
  // The alpha list forms (ints/bools/strings/versions) are not kept; this
  // records that at least one attribute used them, so it is absent above.
  bool has_list_attributes = false;
  // Some field was skipped: an attribute of unknown or list type, a capacity,
  // counter or taint that did not parse. The slice's `warnings` say which.
  bool has_skipped_fields = false;
  bool all_nodes = false;  // only with perDeviceNodeSelection

  // The attribute `key` as written, or nullptr.
  const AttributeValue* FindAttribute(std::string_view key) const;
  const kube::Quantity* FindCapacity(std::string_view key) const;
  const CapacityPolicy* FindCapacityPolicy(std::string_view key) const;

  // A device without a name is an error. Attributes of unknown or list form,
  // invalid capacity or counter quantities and taints that do not parse are
  // skipped, flagged (has_skipped_fields) and named in `warnings`, each
  // prefixed with `path`.
  static kube::Result<Device> FromJson(simdjson::dom::element object, const std::string& path,
                                       std::vector<std::string>& warnings);
};

}  // namespace dra::api
