#include "controller/cel/Parser.h"

#include <algorithm>
#include <iterator>
#include <optional>

#include "controller/cel/ConstantFolder.h"
#include "controller/cel/MacroParser.h"
#include "controller/cel/NodeBuilder.h"
#include "controller/cel/Vocabulary.h"

namespace dra::cel {

using kube::Result;
using kube::Status;

Result<NodePtr> Parser::Parse(std::string_view expression) {
  if (expression.size() > kMaxExpressionBytes)
    return Status(kube::StatusCode::kParseError,
                  "expression is " + std::to_string(expression.size()) +
                      " bytes, more than the limit of " + std::to_string(kMaxExpressionBytes));
  auto tokens = Lexer(expression).Tokenize();
  if (!tokens.ok()) return tokens.status();
  Parser parser(expression, std::move(*tokens));
  NodePtr root;
  KUBE_ASSIGN_OR_RETURN(root, parser.Expr());
  if (parser.cursor_.Peek().kind != Token::Kind::kEnd) return parser.cursor_.Unexpected();
  return root;
}

// Records the depth of a freshly built node and enforces the nesting limit.
Result<NodePtr> Parser::Finish(NodePtr node) {
  int depth = 0;
  for (const auto& child : node->children) depth = std::max(depth, child->depth);
  node->depth = depth + 1;
  if (node->depth > kMaxDepth)
    return cursor_.ErrorAt(
        node->offset, "expression nested more than " + std::to_string(kMaxDepth) + " levels deep");
  return node;
}

Result<NodePtr> Parser::Expr() {
  if (++nesting_ > kMaxDepth)
    return cursor_.ErrorAt(cursor_.Peek().offset, "expression nested too deeply");
  NodePtr cond;
  KUBE_ASSIGN_OR_RETURN(cond, Or());
  if (cursor_.IsPunct("?")) {
    size_t offset = cursor_.Peek().offset;
    cursor_.Advance();
    NodePtr yes, no;
    KUBE_ASSIGN_OR_RETURN(yes, Or());
    if (auto s = cursor_.Expect(":"); !s.ok()) return s;
    KUBE_ASSIGN_OR_RETURN(no, Expr());
    auto node = NodeBuilder::Make(NodeKind::kConditional, offset);
    node->children.push_back(std::move(cond));
    node->children.push_back(std::move(yes));
    node->children.push_back(std::move(no));
    KUBE_ASSIGN_OR_RETURN(cond, Finish(std::move(node)));
  }
  --nesting_;
  return cond;
}

Result<NodePtr> Parser::Or() { return LogicalChain("||", NodeKind::kOr, &Parser::And); }

Result<NodePtr> Parser::And() { return LogicalChain("&&", NodeKind::kAnd, &Parser::Relation); }

// term (op term)*, built as a balanced tree so long chains stay shallow.
Result<NodePtr> Parser::LogicalChain(std::string_view op, NodeKind kind,
                                     Result<NodePtr> (Parser::*term)()) {
  std::vector<NodePtr> terms;
  std::vector<size_t> offsets;
  do {
    offsets.push_back(cursor_.PreviousOffset());
    NodePtr next;
    KUBE_ASSIGN_OR_RETURN(next, (this->*term)());
    terms.push_back(std::move(next));
  } while (cursor_.Accept(op));
  if (terms.size() == 1) return std::move(terms[0]);
  return Finish(NodeBuilder::Balanced(kind, terms, offsets));
}

Result<NodePtr> Parser::Relation() {
  static const std::pair<std::string_view, BinaryOp> kOps[] = {
      {"==", BinaryOp::kEq}, {"!=", BinaryOp::kNe}, {"<=", BinaryOp::kLe},
      {">=", BinaryOp::kGe}, {"<", BinaryOp::kLt},  {">", BinaryOp::kGt}};
  return LeftAssociative(kOps, /*allow_in=*/true, &Parser::Addition);
}

Result<NodePtr> Parser::Addition() {
  static const std::pair<std::string_view, BinaryOp> kOps[] = {{"+", BinaryOp::kAdd},
                                                               {"-", BinaryOp::kSub}};
  return LeftAssociative(kOps, /*allow_in=*/false, &Parser::Multiplication);
}

Result<NodePtr> Parser::Multiplication() {
  static const std::pair<std::string_view, BinaryOp> kOps[] = {
      {"*", BinaryOp::kMul}, {"/", BinaryOp::kDiv}, {"%", BinaryOp::kMod}};
  return LeftAssociative(kOps, /*allow_in=*/false, &Parser::Unary);
}

std::optional<BinaryOp> Parser::MatchOperator(BinaryOps ops, bool allow_in) const {
  const Token& t = cursor_.Peek();
  if (allow_in && t.kind == Token::Kind::kIdent && t.text == "in") return BinaryOp::kIn;
  for (const auto& [text, op] : ops) {
    if (cursor_.IsPunct(text)) return op;
  }
  return std::nullopt;
}

// operand (op operand)*, folded to the left.
Result<NodePtr> Parser::LeftAssociative(BinaryOps ops, bool allow_in,
                                        Result<NodePtr> (Parser::*operand)()) {
  NodePtr lhs;
  KUBE_ASSIGN_OR_RETURN(lhs, (this->*operand)());
  while (std::optional<BinaryOp> op = MatchOperator(ops, allow_in)) {
    size_t offset = cursor_.Peek().offset;
    cursor_.Advance();
    NodePtr rhs;
    KUBE_ASSIGN_OR_RETURN(rhs, (this->*operand)());
    KUBE_ASSIGN_OR_RETURN(lhs, Finish(NodeBuilder::Binary(NodeKind::kBinary, *op, std::move(lhs),
                                                          std::move(rhs), offset)));
  }
  return lhs;
}

Result<NodePtr> Parser::Unary() {
  if (++nesting_ > kMaxDepth)
    return cursor_.ErrorAt(cursor_.Peek().offset, "expression nested too deeply");
  NodePtr result;
  size_t offset = cursor_.Peek().offset;
  if (cursor_.Accept("!")) {
    NodePtr operand;
    KUBE_ASSIGN_OR_RETURN(operand, Unary());
    auto node = NodeBuilder::Make(NodeKind::kNot, offset);
    node->children.push_back(std::move(operand));
    KUBE_ASSIGN_OR_RETURN(result, Finish(std::move(node)));
  } else if (cursor_.Accept("-")) {
    const Token& t = cursor_.Peek();
    bool literal =
        t.kind == Token::Kind::kInt && !(cursor_.NextIsPunct(".") || cursor_.NextIsPunct("["));
    if (literal) {
      // -9223372036854775808 is only valid as a negated literal.
      result = NodeBuilder::Make(NodeKind::kLiteral, offset);
      result->literal = Value(static_cast<int64_t>(0 - t.int_magnitude));
      cursor_.Advance();
    } else {
      NodePtr operand;
      KUBE_ASSIGN_OR_RETURN(operand, Unary());
      auto node = NodeBuilder::Make(NodeKind::kNeg, offset);
      node->children.push_back(std::move(operand));
      KUBE_ASSIGN_OR_RETURN(result, Finish(std::move(node)));
    }
  } else {
    KUBE_ASSIGN_OR_RETURN(result, Member());
  }
  --nesting_;
  return result;
}

Result<NodePtr> Parser::Member() {
  NodePtr node;
  KUBE_ASSIGN_OR_RETURN(node, Primary());
  while (true) {
    size_t offset = cursor_.Peek().offset;
    if (cursor_.Accept(".")) {
      bool optional = cursor_.Accept("?");
      if (cursor_.Peek().kind != Token::Kind::kIdent)
        return cursor_.ErrorAt(cursor_.Peek().offset, "expected a field name");
      Token name = cursor_.Peek();
      cursor_.Advance();
      if (cursor_.IsPunct("(") && !optional) {
        KUBE_ASSIGN_OR_RETURN(node, MemberCall(std::move(node), name));
        continue;
      }
      if (auto s = CheckDeviceField(*node, name); !s.ok()) return s;
      auto select = NodeBuilder::Make(NodeKind::kSelect, offset);
      select->name = name.text;
      select->optional = optional;
      select->children.push_back(std::move(node));
      KUBE_ASSIGN_OR_RETURN(node, Finish(std::move(select)));
    } else if (cursor_.Accept("[")) {
      bool optional = cursor_.Accept("?");
      NodePtr index;
      KUBE_ASSIGN_OR_RETURN(index, Expr());
      if (auto s = cursor_.Expect("]"); !s.ok()) return s;
      auto select = NodeBuilder::Binary(NodeKind::kIndex, BinaryOp::kEq, std::move(node),
                                        std::move(index), offset);
      select->optional = optional;
      KUBE_ASSIGN_OR_RETURN(node, Finish(std::move(select)));
    } else {
      return node;
    }
  }
}

// `device` has a declared object type (kubernetes.DRADevice): selecting a
// field it does not have is a compile error, as cel-go's checker reports.
Status Parser::CheckDeviceField(const Node& operand, const Token& field) const {
  if (operand.kind != NodeKind::kIdent || operand.name != "device" ||
      std::find(scope_.begin(), scope_.end(), "device") != scope_.end())
    return Status::Ok();
  static constexpr std::string_view kFields[] = {"driver", "attributes", "capacity",
                                                 "allowMultipleAllocations"};
  if (std::find(std::begin(kFields), std::end(kFields), field.text) != std::end(kFields))
    return Status::Ok();
  return cursor_.ErrorAt(field.offset, "undefined field '" + field.text + "'");
}

Result<NodePtr> Parser::Primary() {
  const Token& t = cursor_.Peek();
  auto literal = [&](Value v) -> Result<NodePtr> {
    auto node = NodeBuilder::Make(NodeKind::kLiteral, t.offset);
    node->literal = std::move(v);
    cursor_.Advance();
    return node;
  };
  switch (t.kind) {
    case Token::Kind::kInt:
      if (t.int_magnitude > static_cast<uint64_t>(INT64_MAX))
        return cursor_.ErrorAt(t.offset, "integer literal out of range");
      return literal(Value(static_cast<int64_t>(t.int_magnitude)));
    case Token::Kind::kUint:
      return literal(Value(t.uint_value));
    case Token::Kind::kDouble:
      return literal(Value(t.double_value));
    case Token::Kind::kString:
      return literal(Value(t.text));
    case Token::Kind::kIdent:
      if (t.text == "true") return literal(Value(true));
      if (t.text == "false") return literal(Value(false));
      if (t.text == "null") return literal(Value(NullValue{}));
      return IdentOrCall();
    case Token::Kind::kPunct:
      if (t.text == "[") return ListLiteral();
      if (t.text == "{") return MapLiteral();
      if (t.text == "(") {
        cursor_.Advance();
        NodePtr inner;
        KUBE_ASSIGN_OR_RETURN(inner, Expr());
        if (auto s = cursor_.Expect(")"); !s.ok()) return s;
        return inner;
      }
      return cursor_.Unexpected();
    case Token::Kind::kEnd:
      break;
  }
  return cursor_.Unexpected();
}

Result<NodePtr> Parser::IdentOrCall() {
  Token name = cursor_.Peek();
  cursor_.Advance();
  if (Vocabulary::IsReserved(name.text))
    return cursor_.ErrorAt(name.offset, "reserved word '" + name.text + "'");
  bool shadowed = std::find(scope_.begin(), scope_.end(), name.text) != scope_.end();
  if (!shadowed && Vocabulary::IsNamespace(name.text) && cursor_.IsPunct("."))
    return Qualified(name);
  if (cursor_.IsPunct("(")) {
    if (name.text == "has") return MacroParser(*this).Has(name);
    NodePtr node;
    KUBE_ASSIGN_OR_RETURN(node, CallTo(name));
    cursor_.Advance();
    if (auto s = Args(node->children, ")"); !s.ok()) return s;
    ConstantFolder::PrecompilePattern(*node);
    return Finish(ConstantFolder::Fold(std::move(node)));
  }
  if (!shadowed && Vocabulary::IsTypeName(name.text)) {
    auto node = NodeBuilder::Make(NodeKind::kLiteral, name.offset);
    node->literal = Value(TypeValue{name.text});
    return node;
  }
  bool known = name.text == "device" || shadowed;
  if (!known) return cursor_.ErrorAt(name.offset, "undeclared reference to '" + name.text + "'");
  auto node = NodeBuilder::Make(NodeKind::kIdent, name.offset);
  node->name = name.text;
  return node;
}

Status Parser::Args(std::vector<NodePtr>& out, std::string_view close) {
  if (cursor_.Accept(close)) return Status::Ok();
  while (true) {
    // [?x]: an optional element, left out when x is optional.none().
    bool optional_entry = close == "]" && cursor_.Accept("?");
    NodePtr arg;
    KUBE_ASSIGN_OR_RETURN(arg, Expr());
    arg->optional_entry = optional_entry;
    out.push_back(std::move(arg));
    if (cursor_.Accept(close)) return Status::Ok();
    if (auto s = cursor_.Expect(","); !s.ok()) return s;
    if (close == "]" && cursor_.Accept(close)) return Status::Ok();
  }
}

Result<NodePtr> Parser::ListLiteral() {
  auto node = NodeBuilder::Make(NodeKind::kList, cursor_.Peek().offset);
  cursor_.Advance();
  if (auto s = Args(node->children, "]"); !s.ok()) return s;
  return Finish(std::move(node));
}

Result<NodePtr> Parser::MapLiteral() {
  auto node = NodeBuilder::Make(NodeKind::kMap, cursor_.Peek().offset);
  cursor_.Advance();
  while (!cursor_.Accept("}")) {
    NodePtr key, value;
    bool optional_entry = cursor_.Accept("?");  // {?k: v}: left out when v is optional.none()
    KUBE_ASSIGN_OR_RETURN(key, Expr());
    if (auto s = cursor_.Expect(":"); !s.ok()) return s;
    KUBE_ASSIGN_OR_RETURN(value, Expr());
    value->optional_entry = optional_entry;
    node->children.push_back(std::move(key));
    node->children.push_back(std::move(value));
    if (cursor_.Accept("}")) break;
    if (auto s = cursor_.Expect(","); !s.ok()) return s;
  }
  return Finish(std::move(node));
}

// A call node for the function `name` names, arguments still to come.
Result<NodePtr> Parser::CallTo(const Token& name) {
  std::optional<Function> function = Vocabulary::FunctionNamed(name.text);
  bool extension = !function && Vocabulary::IsExtension(name.text);
  if (!function && !extension)
    return cursor_.ErrorAt(name.offset, "undeclared reference to '" + name.text + "'");
  auto node = NodeBuilder::Make(NodeKind::kCall, name.offset);
  node->function = extension ? Function::kExtension : *function;
  node->name = name.text;
  return node;
}

// ns.function(args) for the namespaced functions, and the cel.bind macro.
Result<NodePtr> Parser::Qualified(const Token& ns) {
  cursor_.Advance();  // .
  if (cursor_.Peek().kind != Token::Kind::kIdent)
    return cursor_.ErrorAt(cursor_.Peek().offset, "expected a name");
  Token name = cursor_.Peek();
  cursor_.Advance();
  name.text = ns.text + "." + name.text;
  name.offset = ns.offset;
  if (!cursor_.IsPunct("("))
    return cursor_.ErrorAt(name.offset, "undeclared reference to '" + name.text + "'");
  if (name.text == "cel.bind") return MacroParser(*this).Bind(name);
  NodePtr node;
  KUBE_ASSIGN_OR_RETURN(node, CallTo(name));
  cursor_.Advance();
  if (auto s = Args(node->children, ")"); !s.ok()) return s;
  return Finish(std::move(node));
}

Result<NodePtr> Parser::MemberCall(NodePtr target, const Token& name) {
  if (std::optional<Macro> macro = Vocabulary::MacroNamed(name.text))
    return MacroParser(*this).Comprehension(std::move(target), name, *macro);
  NodePtr node;
  KUBE_ASSIGN_OR_RETURN(node, CallTo(name));
  node->has_target = true;
  node->children.push_back(std::move(target));
  cursor_.Advance();  // (
  if (auto s = Args(node->children, ")"); !s.ok()) return s;
  ConstantFolder::PrecompilePattern(*node);
  return Finish(std::move(node));
}

}  // namespace dra::cel
