#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/base/Result.h"

namespace kube {

// The part of metav1.ObjectMeta every cached projection keeps. Deliberately
// small: no managedFields, no annotations (projections pick the few they need).
struct ObjectMeta {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  int64_t creation_timestamp = 0;  // seconds since the epoch
  bool deleting = false;           // deletionTimestamp is set
  std::vector<std::pair<std::string, std::string>> labels;

  // "namespace/name", or "name" for cluster-scoped objects (client-go's key).
  std::string Key() const { return namespace_name.empty() ? name : namespace_name + "/" + name; }

  // Whether FromObject reads metadata.labels: a projection whose readers
  // never look at them saves their heap in every cached object.
  enum class Labels : uint8_t { kKeep, kSkip };

  // Reads `object.metadata`; an object without metadata.name is an error.
  static Result<ObjectMeta> FromObject(simdjson::dom::element object,
                                       Labels labels = Labels::kKeep);
};

}  // namespace kube
