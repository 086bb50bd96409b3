#pragma once

#include <string_view>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// cel-go's lists extension at the version Kubernetes enables since 1.34
// (v3): slice, flatten, sort, reverse, distinct and lists.range; the
// sortBy macro evaluates its keys in the Evaluator and sorts here.
class ListsExtension {
 public:
  static constexpr int64_t kMaxRange = 1000000;  // cel-go's default range limit

  static bool Handles(std::string_view name);
  // `list` ordered by `keys` (one per element, all of one comparable type);
  // equal keys keep their order.
  static Value SortBy(const ValueList& list, const ValueList& keys);
  static Value Call(const Node& call, const std::vector<Value>& args);

 private:
  static Value Slice(const ValueList& list, int64_t start, int64_t end);
  static Value Flatten(const ValueList& list, int64_t depth);
  static Value Sort(const ValueList& list);
  static Value Distinct(const ValueList& list);
  static Value Range(int64_t n);
};

}  // namespace dra::cel
