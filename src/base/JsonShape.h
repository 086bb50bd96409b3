#pragma once

#include <cstddef>
#include <string_view>

#include "src/base/Status.h"

namespace kube {

// The nesting depth and number of values of a JSON text, read in one pass
// without building anything: a parsed document costs about a hundred bytes
// per value, so a body small enough to read can still be too costly to
// parse. Only the structure is looked at (brackets outside strings, commas,
// escapes); malformed text is left for the parser to refuse.
struct JsonShape {
  size_t max_depth = 0;  // of objects and arrays; 0 for a scalar
  size_t values = 0;     // scalars, objects and arrays (object keys not counted)

  static JsonShape Of(std::string_view text);

  // kInvalidArgument naming the limit `text` passes, checked as it is read
  // (it stops at the first excess, however long the text).
  static Status Check(std::string_view text, size_t max_depth, size_t max_values);
};

}  // namespace kube
