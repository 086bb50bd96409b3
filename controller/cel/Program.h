#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "controller/cel/Ast.h"
#include "controller/cel/Device.h"
#include "src/base/Result.h"

namespace dra::cel {

// The outcome of a selector: true/false, or the runtime error that occurred.
using EvalResult = kube::Result<bool>;

// A compiled DRA device selector. Immutable and safe to share across threads.
class Program {
 public:
  static kube::Result<std::shared_ptr<const Program>> Compile(std::string_view expression);

  // A selector must produce a bool; anything else is an error, as is
  // exceeding `cost_limit` (see Evaluator for how cost is counted).
  EvalResult Evaluate(const Device& device, uint64_t cost_limit = kDefaultCostLimit) const;

  // resource.k8s.io's CELSelectorExpressionMaxCost, the scheduler's default.
  static constexpr uint64_t kDefaultCostLimit = 1000000;

  const std::string& expression() const { return expression_; }

 private:
  Program(std::string expression, NodePtr root)
      : expression_(std::move(expression)), root_(std::move(root)) {}

  std::string expression_;
  NodePtr root_;
};

}  // namespace dra::cel
