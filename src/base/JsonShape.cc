#include "src/base/JsonShape.h"

#include <algorithm>
#include <limits>
#include <string>

namespace kube {
namespace {

// Walks `text`, counting values and depth; stops and returns false as soon as
// either passes its limit.
bool Walk(std::string_view text, size_t max_depth, size_t max_values, JsonShape& shape) {
  size_t depth = 0;
  bool in_string = false;
  bool in_scalar = false;  // inside a number or literal
  bool is_key = false;     // the string under way is an object key
  // Per open container: whether it is an object (keys are not values).
  std::string objects;
  auto start_value = [&] {
    ++shape.values;
    return shape.values <= max_values;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    bool scalar_char = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' ||
                       c == '.' || c == 'E';
    if (scalar_char) {
      if (!in_scalar && !start_value()) return false;
      in_scalar = true;
      continue;
    }
    in_scalar = false;
    switch (c) {
      case '"':
        in_string = true;
        if (is_key) {
          is_key = false;
        } else if (!start_value()) {
          return false;
        }
        break;
      case '{':
      case '[':
        if (!start_value()) return false;
        ++depth;
        shape.max_depth = std::max(shape.max_depth, depth);
        if (depth > max_depth) return false;
        objects.push_back(c == '{' ? 'o' : 'a');
        is_key = c == '{';
        break;
      case '}':
      case ']':
        if (depth > 0) --depth;
        if (!objects.empty()) objects.pop_back();
        is_key = false;
        break;
      case ',':
        is_key = !objects.empty() && objects.back() == 'o';
        break;
      default:
        break;
    }
  }
  return true;
}

}  // namespace

JsonShape JsonShape::Of(std::string_view text) {
  JsonShape shape;
  Walk(text, std::numeric_limits<size_t>::max(), std::numeric_limits<size_t>::max(), shape);
  return shape;
}

Status JsonShape::Check(std::string_view text, size_t max_depth, size_t max_values) {
  JsonShape shape;
  if (Walk(text, max_depth, max_values, shape)) return Status::Ok();
  if (shape.max_depth > max_depth) {
    return Status(StatusCode::kInvalidArgument,
                  "JSON nested deeper than " + std::to_string(max_depth) + " levels");
  }
  return Status(StatusCode::kInvalidArgument,
                "JSON with more than " + std::to_string(max_values) + " values");
}

}  // namespace kube
