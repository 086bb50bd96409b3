#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "src/base/Result.h"

namespace kube {

// Small lookups over a protobuf message for decoders that need one field, or
// read map entries (repeated messages of key = 1, value = 2).
class ProtoFields {
 public:
  // The last occurrence of bytes field `field` (the one a decoder keeps);
  // nullopt when absent. Malformed messages are errors.
  static Result<std::optional<std::string_view>> Find(std::string_view message, uint32_t field);
  // The first occurrence, reading no further: bytes after it (even
  // malformed ones) are not looked at. For a field written first, such as
  // every object's metadata, when only it is needed.
  static Result<std::optional<std::string_view>> FindFirst(std::string_view message,
                                                           uint32_t field);

  // One map<string, V> entry: the key and the value's bytes (a string, or an
  // embedded message such as a Quantity). Views into `entry`.
  static Result<std::pair<std::string_view, std::string_view>> Entry(std::string_view entry);
  // One map<string, resource.Quantity> entry (a Quantity is a message whose
  // field 1 is its text): the key, and the text (nullopt when absent).
  static Result<std::pair<std::string_view, std::optional<std::string_view>>> QuantityEntry(
      std::string_view entry);
  // One map<string, string> entry, copied.
  static Result<std::pair<std::string, std::string>> StringEntry(std::string_view entry);
};

}  // namespace kube
