#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/CompactVector.h"
#include "src/base/InternedString.h"
#include "src/base/ResourceVersion.h"
#include "src/base/Result.h"
#include "src/base/Uid.h"
#include "src/cache/RawObject.h"

namespace kube {

// The part of metav1.ObjectMeta every cached projection keeps. Deliberately
// small: no managedFields, no annotations, no generation or creationTimestamp
// (the projections that need one read it themselves), so that each of a
// fleet's cached objects pays for none of them.
struct ObjectMeta {
  InternedString namespace_name;  // repeated by every object of a namespace
  std::string name;
  Uid uid;
  ResourceVersion resource_version;  // one word rather than a std::string's four
  // One pointer: most cached objects have no labels, or skip them.
  CompactVector<std::pair<std::string, std::string>> labels;
  bool deleting = false;  // deletionTimestamp is set

  // "namespace/name", or "name" for cluster-scoped objects (client-go's key).
  std::string Key() const { return namespace_name.empty() ? name : namespace_name + "/" + name; }

  // Whether FromObject reads metadata.labels: a projection whose readers
  // never look at them saves their heap in every cached object.
  enum class Labels : uint8_t { kKeep, kSkip };

  // Reads `object.metadata`; an object without metadata.name is an error.
  static Result<ObjectMeta> FromObject(simdjson::dom::element object,
                                       Labels labels = Labels::kKeep);
  // The same from an object's protobuf message (its field 1, ObjectMeta).
  static Result<ObjectMeta> FromProto(std::string_view object, Labels labels = Labels::kKeep);
  static Result<ObjectMeta> FromRaw(const RawObject& object, Labels labels = Labels::kKeep);

  // metav1.ObjectMeta's field numbers, for decoders of other fields of it.
  static constexpr uint32_t kProtoField = 1;  // `metadata` of every top-level object
  static constexpr uint32_t kProtoAnnotations = 12;
};

}  // namespace kube
