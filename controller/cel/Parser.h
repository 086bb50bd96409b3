#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Lexer.h"
#include "controller/cel/TokenCursor.h"
#include "src/base/Result.h"

namespace dra::cel {

// Recursive-descent parser for the CEL subset used by DRA selectors. Names
// are resolved here: unknown identifiers and functions are compile errors.
// Macros are parsed by MacroParser, names looked up in Vocabulary.
class Parser {
 public:
  static constexpr size_t kMaxExpressionBytes = size_t{10} * 1024;
  static constexpr int kMaxDepth = 100;

  static kube::Result<NodePtr> Parse(std::string_view expression);

 private:
  friend class MacroParser;

  Parser(std::string_view input, std::vector<Token> tokens) : cursor_(input, std::move(tokens)) {}

  kube::Result<NodePtr> Expr();
  kube::Result<NodePtr> Or();
  kube::Result<NodePtr> And();
  kube::Result<NodePtr> LogicalChain(std::string_view op, NodeKind kind,
                                     kube::Result<NodePtr> (Parser::*term)());
  kube::Result<NodePtr> Relation();
  kube::Result<NodePtr> Addition();
  kube::Result<NodePtr> Multiplication();
  using BinaryOps = std::span<const std::pair<std::string_view, BinaryOp>>;
  std::optional<BinaryOp> MatchOperator(BinaryOps ops, bool allow_in) const;
  kube::Result<NodePtr> LeftAssociative(BinaryOps ops, bool allow_in,
                                        kube::Result<NodePtr> (Parser::*operand)());
  kube::Result<NodePtr> Unary();
  kube::Result<NodePtr> Member();
  kube::Result<NodePtr> Primary();
  kube::Result<NodePtr> IdentOrCall();
  kube::Result<NodePtr> ListLiteral();
  kube::Result<NodePtr> MapLiteral();
  kube::Result<NodePtr> MemberCall(NodePtr target, const Token& name);
  kube::Result<NodePtr> CallTo(const Token& name);
  kube::Result<NodePtr> Qualified(const Token& ns);
  kube::Status CheckDeviceField(const Node& operand, const Token& field) const;
  kube::Status Args(std::vector<NodePtr>& out, std::string_view close);
  kube::Result<NodePtr> Finish(NodePtr node);

  TokenCursor cursor_;
  int nesting_ = 0;
  std::vector<std::string> scope_;  // comprehension variables in scope
};

}  // namespace dra::cel
