#pragma once

#include <string>

#include "controller/cel/Ast.h"
#include "controller/cel/Lexer.h"
#include "src/base/Result.h"

namespace dra::cel {

class Parser;

// The macros, which bind variables or take their argument unevaluated:
// has(), cel.bind() and the comprehensions (all, exists, map, ...). Their
// operands are parsed by the Parser they belong to.
class MacroParser {
 public:
  explicit MacroParser(Parser& parser) : parser_(parser) {}

  // After `has`, at "(".
  kube::Result<NodePtr> Has(const Token& name);
  // After `cel.bind`, at "(".
  kube::Result<NodePtr> Bind(const Token& name);
  // After `target.name`, at "(".
  kube::Result<NodePtr> Comprehension(NodePtr target, const Token& name, Macro macro);

 private:
  bool TwoVariables(Macro macro) const;
  kube::Result<std::string> Variable(const Token& name);

  Parser& parser_;
};

}  // namespace dra::cel
