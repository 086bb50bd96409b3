#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/Status.h"

namespace kube {

// Walks the fields of one protobuf message in wire format, without a schema:
// each Next() reads a tag and its value. Callers pick the fields they know
// and pass over the rest, as a generated decoder does with unknown fields.
// Malformed input (a truncated varint or payload, a length past the end, a
// group or an unknown wire type, field number 0) ends the walk with an error
// in status(); it never reads outside the message.
class ProtoReader {
 public:
  enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

  explicit ProtoReader(std::string_view message) : rest_(message) {}

  // Reads the next field; false at the end of the message or on an error.
  bool Next();

  uint32_t field() const { return field_; }
  WireType wire_type() const { return wire_type_; }
  // The value of a varint or fixed-width field (0 for a bytes field).
  uint64_t number() const { return number_; }
  // int32/int64 fields: the two's complement value of the varint.
  int64_t AsInt64() const { return static_cast<int64_t>(number_); }
  bool AsBool() const { return number_ != 0; }
  // The payload of a bytes field (a string, bytes or an embedded message).
  std::string_view bytes() const { return bytes_; }
  std::string AsString() const { return std::string(bytes_); }
  bool is_bytes() const { return wire_type_ == WireType::kBytes; }
  bool is_varint() const { return wire_type_ == WireType::kVarint; }

  const Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }

 private:
  bool ReadVarint(uint64_t& out);
  bool Fail(std::string message);

  std::string_view rest_;
  uint32_t field_ = 0;
  WireType wire_type_ = WireType::kVarint;
  uint64_t number_ = 0;
  std::string_view bytes_;
  Status status_;
};

}  // namespace kube
