#pragma once

#include <string_view>

#include "src/base/Result.h"

namespace kube {

// kube-apiserver's protobuf encoding of a whole object (a LIST body, the
// object of a watch event, an error Status): the magic "k8s\0", then a
// runtime.Unknown whose `raw` holds the object's own message.
class ProtoEnvelope {
 public:
  static constexpr std::string_view kMagic{"k8s\0", 4};
  // What to put in Accept: protobuf where the server has it (built-in
  // types), JSON where it does not (custom resources).
  static constexpr const char* kAccept = "application/vnd.kubernetes.protobuf, application/json";

  // Whether `body` starts with the magic.
  static bool IsProtobuf(std::string_view body) { return body.substr(0, kMagic.size()) == kMagic; }

  // The object's message inside the envelope; a view into `body`.
  static Result<std::string_view> Unwrap(std::string_view body);
};

}  // namespace kube
