#pragma once

#include <string_view>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// CEL optional types (cel.OptionalTypes, enabled since Kubernetes 1.28):
// optional.of/none/ofNonZeroValue and the methods hasValue, value, orValue
// and or. `.?field` and `[?key]` are evaluated by the Evaluator.
class Optionals {
 public:
  static bool Handles(std::string_view name);
  static Value Call(const Node& call, const std::vector<Value>& args);

 private:
  static bool IsZero(const Value& v);
};

}  // namespace dra::cel
