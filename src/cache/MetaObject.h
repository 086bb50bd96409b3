#pragma once

#include <simdjson.h>

#include <string_view>

#include "src/base/Result.h"
#include "src/cache/ObjectMeta.h"

namespace kube {

// The smallest projection: metadata only. Enough to mirror any resource
// (names, labels, resource versions), e.g. for tests and existence checks.
struct MetaObject {
  ObjectMeta meta;

  static Result<MetaObject> FromJson(simdjson::dom::element object) {
    auto meta = ObjectMeta::FromObject(object);
    if (!meta.ok()) return meta.status();
    return MetaObject{std::move(*meta)};
  }
  static Result<MetaObject> FromProto(std::string_view object) {
    auto meta = ObjectMeta::FromProto(object);
    if (!meta.ok()) return meta.status();
    return MetaObject{std::move(*meta)};
  }
};

}  // namespace kube
