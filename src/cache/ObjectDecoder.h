#pragma once

#include <simdjson.h>

#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "src/base/Result.h"
#include "src/cache/RawObject.h"

namespace kube {

// How an informer projects an object into T: from JSON always, and from its
// protobuf message where the projection has a decoder for it. With one, the
// informer asks the server for protobuf (built-in types; the server answers
// JSON for custom resources), which is several times cheaper to encode,
// send and read than JSON.
template <typename T>
struct ObjectDecoder {
  using FromJson = std::function<Result<T>(simdjson::dom::element)>;
  using FromProtobuf = std::function<Result<T>(std::string_view)>;

  // Implicit from a JSON projection alone, so that informers of types
  // without a protobuf decoder are declared as before.
  template <typename F,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, ObjectDecoder> &&
                                        std::is_constructible_v<FromJson, F>>>
  ObjectDecoder(F&& json)  // NOLINT(google-explicit-constructor)
      : from_json(std::forward<F>(json)) {}
  ObjectDecoder(FromJson json, FromProtobuf protobuf)
      : from_json(std::move(json)), from_protobuf(std::move(protobuf)) {}

  bool has_protobuf() const { return static_cast<bool>(from_protobuf); }

  Result<T> operator()(const RawObject& object) const {
    if (!object.is_protobuf()) return from_json(object.json());
    if (!from_protobuf) {
      return Status(StatusCode::kParseError, "protobuf object where only JSON can be projected");
    }
    return from_protobuf(object.protobuf());
  }

  FromJson from_json;
  FromProtobuf from_protobuf;
};

}  // namespace kube
