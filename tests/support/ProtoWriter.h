#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kube::testing {

// Builds protobuf wire-format messages for tests, field by field, in the
// order the calls are made (as kube-apiserver would write them, or not).
class ProtoWriter {
 public:
  ProtoWriter& Varint(uint32_t field, uint64_t value);
  ProtoWriter& Bytes(uint32_t field, std::string_view value);
  ProtoWriter& Message(uint32_t field, const ProtoWriter& message) {
    return Bytes(field, message.str());
  }
  ProtoWriter& Fixed32(uint32_t field, uint32_t value);
  ProtoWriter& Fixed64(uint32_t field, uint64_t value);
  // A map<string, string> entry (key = 1, value = 2) under `field`.
  ProtoWriter& StringEntry(uint32_t field, std::string_view key, std::string_view value);
  // Appends bytes as they are (to write malformed messages).
  ProtoWriter& Raw(std::string_view bytes);

  const std::string& str() const { return out_; }

  static std::string EncodeVarint(uint64_t value);
  // "k8s\0" + runtime.Unknown{raw = message}, as the apiserver wraps objects.
  static std::string Envelope(std::string_view message);
  // A 4-byte big-endian length, then the bytes (a watch stream frame).
  static std::string Frame(std::string_view bytes);
  // A watch stream frame of metav1.WatchEvent{type, object: raw(enveloped)}.
  static std::string WatchFrame(std::string_view type, std::string_view object_message);

 private:
  void Tag(uint32_t field, uint32_t wire_type);

  std::string out_;
};

}  // namespace kube::testing
