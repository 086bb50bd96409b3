#pragma once

#include <string_view>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// Kubernetes' lists library as v1.37 enables it (isSorted, sum, min, max,
// indexOf, lastIndexOf, includes) and cel-go's sets extension
// (sets.contains, sets.equivalent, sets.intersects). Element equality is
// CEL's (numbers compare across int, uint and double).
class ListsLibrary {
 public:
  // indexOf/lastIndexOf are the lists' when the receiver is a list.
  static bool Handles(std::string_view name, const std::vector<Value>& args);
  static Value Call(const Node& call, const std::vector<Value>& args);

 private:
  static Value Extreme(const Node& call, const ValueList& list, bool max);
  static Value Sum(const Node& call, const ValueList& list);
  static Value Position(const ValueList& list, const Value& element, bool last);
  static Value IsSorted(const ValueList& list);
  static Value Sets(const Node& call, const ValueList& a, const ValueList& b);
  static bool Contains(const ValueList& list, const Value& element);
};

}  // namespace dra::cel
