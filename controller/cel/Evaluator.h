#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Device.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// Tree-walking evaluation of a parsed expression against one device. Runtime
// errors are returned as error values, never thrown.
//
// Cost: upstream (cel-go's runtime cost tracker, as the DRA environment
// enables it) charges about one unit per evaluated operation (variable
// access, field selection, function call, comprehension step) and, for
// functions linear in their input (string search, regex, list functions),
// a tenth of a unit per character or element. This evaluator charges one
// unit per evaluated non-literal node and the same tenth per character or
// element of the arguments of linear functions, so its count tracks
// upstream's to within a small factor. Once `cost_limit` is exceeded the
// evaluation stops; the result is then an error whatever the expression's
// value would have been (cel-go aborts the whole program too).
class Evaluator {
 public:
  static constexpr uint64_t kDefaultCostLimit = 1000000;  // CELSelectorExpressionMaxCost

  explicit Evaluator(const Device& device, uint64_t cost_limit = kDefaultCostLimit)
      : device_(device), cost_limit_(cost_limit) {}

  // An error produced (not merely passed on) by `node` carries its offset.
  Value Eval(const Node& node);

  uint64_t cost() const { return cost_; }
  bool cost_exceeded() const { return cost_ > cost_limit_; }
  static const char* CostLimitMessage() {
    return "operation cancelled: actual cost limit exceeded";
  }

 private:
  Value EvalNode(const Node& node);
  Value Ident(const Node& node);
  Value Resolve(size_t index);
  Value Select(const Node& node);
  Value Has(const Node& node);
  Value Index(const Node& node);
  Value And(const Node& node);
  Value Or(const Node& node);
  Value Not(const Node& node);
  Value Neg(const Node& node);
  Value Conditional(const Node& node);
  Value Binary(const Node& node);
  Value List(const Node& node);
  Value Map(const Node& node);
  Value Call(const Node& node);
  Value Bind(const Node& node);
  Value Comprehension(const Node& node);
  using Entries = std::vector<std::pair<Value, Value>>;
  Value Fold(const Node& node, const Entries& range, bool is_list);
  Value Transform(const Node& node, const Entries& range, bool is_list);
  Value OptionalMacro(const Node& node, const Value& target);
  Value SortBy(const Node& node, const Value& target);
  static Value MergeEntry(ValueMap& out, const Value& entry);
  void SetVars(const Node& node, const std::pair<Value, Value>& entry, bool is_list);
  void ChargeArguments(const Node& node, const std::vector<Value>& args);

  const Device& device_;
  uint64_t cost_limit_;
  uint64_t cost_ = 0;
  std::vector<std::pair<std::string_view, Value>> vars_;
  // cel.bind variables not evaluated yet: index in vars_, initializer.
  std::vector<std::pair<size_t, const Node*>> pending_;
};

}  // namespace dra::cel
