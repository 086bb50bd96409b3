#include "controller/cel/MacroParser.h"

#include "controller/cel/NodeBuilder.h"
#include "controller/cel/Parser.h"
#include "controller/cel/Vocabulary.h"

namespace dra::cel {

using kube::Result;
using kube::Status;

Result<NodePtr> MacroParser::Has(const Token& name) {
  TokenCursor& cursor = parser_.cursor_;
  cursor.Advance();  // (
  NodePtr arg;
  KUBE_ASSIGN_OR_RETURN(arg, parser_.Expr());
  if (auto s = cursor.Expect(")"); !s.ok()) return s;
  // As cel-go, has() takes a field selection only: has(m["k"]) and
  // has(x.?f) are compile errors (write "k" in m instead).
  if (arg->kind != NodeKind::kSelect || arg->optional)
    return cursor.ErrorAt(name.offset, "invalid argument to has() macro");
  arg->kind = NodeKind::kHas;
  arg->offset = name.offset;
  return arg;
}

// cel.bind(var, init, body): `var` names init's value inside body.
Result<NodePtr> MacroParser::Bind(const Token& name) {
  TokenCursor& cursor = parser_.cursor_;
  cursor.Advance();  // (
  if (cursor.Peek().kind != Token::Kind::kIdent || Vocabulary::IsReserved(cursor.Peek().text))
    return cursor.ErrorAt(cursor.Peek().offset, "cel.bind() variable must be a simple identifier");
  auto node = NodeBuilder::Make(NodeKind::kBind, name.offset);
  node->name = cursor.Peek().text;
  cursor.Advance();
  if (auto s = cursor.Expect(","); !s.ok()) return s;
  NodePtr init;
  KUBE_ASSIGN_OR_RETURN(init, parser_.Expr());
  if (auto s = cursor.Expect(","); !s.ok()) return s;
  parser_.scope_.push_back(node->name);
  auto parsed = parser_.Expr();
  parser_.scope_.pop_back();
  if (!parsed.ok()) return parsed.status();
  if (auto s = cursor.Expect(")"); !s.ok()) return s;
  node->children.push_back(std::move(init));
  node->children.push_back(std::move(*parsed));
  return parser_.Finish(std::move(node));
}

// all/exists/existsOne take (k, v, predicate) as well as (x, predicate);
// transformList/transformMap always take two variables.
bool MacroParser::TwoVariables(Macro macro) const {
  if (macro == Macro::kTransformList || macro == Macro::kTransformMap ||
      macro == Macro::kTransformMapEntry)
    return true;
  if (macro != Macro::kAll && macro != Macro::kExists && macro != Macro::kExistsOne) return false;
  // after "(x ,": "v ," starts a two-variable form
  const TokenCursor& cursor = parser_.cursor_;
  return cursor.Peek().kind == Token::Kind::kIdent && cursor.NextIsPunct(",");
}

// The name of an iteration variable.
Result<std::string> MacroParser::Variable(const Token& name) {
  TokenCursor& cursor = parser_.cursor_;
  if (cursor.Peek().kind != Token::Kind::kIdent || Vocabulary::IsReserved(cursor.Peek().text))
    return cursor.ErrorAt(cursor.Peek().offset,
                          "argument to " + name.text + "() must be a variable name");
  std::string var = cursor.Peek().text;
  cursor.Advance();
  return var;
}

Result<NodePtr> MacroParser::Comprehension(NodePtr target, const Token& name, Macro macro) {
  TokenCursor& cursor = parser_.cursor_;
  auto node = NodeBuilder::Make(NodeKind::kComprehension, name.offset);
  node->macro = macro;
  cursor.Advance();  // (
  std::string var, var2;
  KUBE_ASSIGN_OR_RETURN(var, Variable(name));
  if (auto s = cursor.Expect(","); !s.ok()) return s;
  if (TwoVariables(macro)) {
    KUBE_ASSIGN_OR_RETURN(var2, Variable(name));
    if (var2 == var) return cursor.ErrorAt(name.offset, "duplicate variable name '" + var + "'");
    if (auto s = cursor.Expect(","); !s.ok()) return s;
  }
  std::vector<std::string>& scope = parser_.scope_;
  scope.push_back(var);
  if (!var2.empty()) scope.push_back(var2);
  node->children.push_back(std::move(target));
  std::vector<NodePtr> args;
  auto status = parser_.Args(args, ")");
  scope.resize(scope.size() - (var2.empty() ? 1 : 2));
  if (!status.ok()) return status;
  bool transform = macro == Macro::kTransformList || macro == Macro::kTransformMap ||
                   macro == Macro::kTransformMapEntry;
  size_t max_args = macro == Macro::kMap || transform ? 2 : 1;
  if (args.empty() || args.size() > max_args)
    return cursor.ErrorAt(name.offset, "wrong number of arguments to " + name.text + "()");
  for (auto& arg : args) node->children.push_back(std::move(arg));
  node->name = var;
  node->name2 = var2;
  return parser_.Finish(std::move(node));
}

}  // namespace dra::cel
