#include "controller/cel/Program.h"

#include "controller/cel/Evaluator.h"
#include "controller/cel/Lexer.h"
#include "controller/cel/Parser.h"

namespace dra::cel {

kube::Result<std::shared_ptr<const Program>> Program::Compile(std::string_view expression) {
  NodePtr root;
  KUBE_ASSIGN_OR_RETURN(root, Parser::Parse(expression));
  return std::shared_ptr<const Program>(new Program(std::string(expression), std::move(root)));
}

EvalResult Program::Evaluate(const Device& device, uint64_t cost_limit) const {
  Evaluator evaluator(device, cost_limit);
  Value v = evaluator.Eval(*root_);
  // false && <over the limit> is still over the limit: cel-go aborts.
  if (evaluator.cost_exceeded()) v = Value(ErrorValue{Evaluator::CostLimitMessage(), std::nullopt});
  if (auto* b = v.If<bool>()) return *b;
  if (auto* e = v.If<ErrorValue>()) {
    std::string where = e->offset ? " at " + Lexer::Position(expression_, *e->offset) : "";
    return kube::Status(kube::StatusCode::kInvalidArgument, e->message + where);
  }
  return kube::Status(kube::StatusCode::kInvalidArgument,
                      "expression must evaluate to bool, got " + std::string(v.TypeName()));
}

}  // namespace dra::cel
