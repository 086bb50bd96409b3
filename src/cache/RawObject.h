#pragma once

#include <simdjson.h>

#include <string_view>

namespace kube {

// One object as read off the wire, before projection: a JSON element, or the
// bytes of its protobuf message (the envelope already removed). Either is a
// view, valid only during the call it is passed to.
class RawObject {
 public:
  RawObject() = default;  // a JSON null
  // Implicit: a JSON object is a RawObject.
  RawObject(simdjson::dom::element json) : json_(json) {}  // NOLINT(google-explicit-constructor)

  static RawObject Protobuf(std::string_view message) {
    RawObject object;
    object.protobuf_ = message;
    object.is_protobuf_ = true;
    return object;
  }

  bool is_protobuf() const { return is_protobuf_; }
  simdjson::dom::element json() const { return json_; }
  std::string_view protobuf() const { return protobuf_; }

 private:
  simdjson::dom::element json_;
  std::string_view protobuf_;
  bool is_protobuf_ = false;
};

}  // namespace kube
