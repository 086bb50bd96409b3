#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Device.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// Tree-walking evaluation of a parsed expression against one device. Runtime
// errors are returned as error values, never thrown.
class Evaluator {
 public:
  explicit Evaluator(const Device& device) : device_(device) {}

  // An error produced (not merely passed on) by `node` carries its offset.
  Value Eval(const Node& node);

 private:
  Value EvalNode(const Node& node);
  Value Ident(const Node& node);
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
  Value Comprehension(const Node& node);
  Value Fold(const Node& node, const std::vector<Value>& range);

  const Device& device_;
  std::vector<std::pair<std::string_view, Value>> vars_;
};

}  // namespace dra::cel
