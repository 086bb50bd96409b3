#include "controller/cel/Parser.h"

#include <algorithm>
#include <map>
#include <optional>

namespace dra::cel {
namespace {

using kube::Result;
using kube::Status;

NodePtr MakeNode(NodeKind kind, size_t offset) {
  auto node = std::make_unique<Node>();
  node->kind = kind;
  node->offset = offset;
  return node;
}

NodePtr MakeBinary(NodeKind kind, BinaryOp op, NodePtr lhs, NodePtr rhs, size_t offset) {
  auto node = MakeNode(kind, offset);
  node->op = op;
  node->children.push_back(std::move(lhs));
  node->children.push_back(std::move(rhs));
  return node;
}

// Builds a balanced tree of && or || so that long chains stay shallow; both
// are associative (including CEL's commutative error handling).
NodePtr Balance(NodeKind kind, std::vector<NodePtr>& terms, size_t lo, size_t hi,
                const std::vector<size_t>& offsets) {
  if (hi - lo == 1) return std::move(terms[lo]);
  size_t mid = lo + (hi - lo) / 2;
  NodePtr lhs = Balance(kind, terms, lo, mid, offsets);
  NodePtr rhs = Balance(kind, terms, mid, hi, offsets);
  NodePtr node = MakeBinary(kind, BinaryOp::kEq, std::move(lhs), std::move(rhs), offsets[mid]);
  node->depth = std::max(node->children[0]->depth, node->children[1]->depth) + 1;
  return node;
}

const std::map<std::string_view, Function>& Functions() {
  static const std::map<std::string_view, Function> kFunctions = {
      {"size", Function::kSize},
      {"startsWith", Function::kStartsWith},
      {"endsWith", Function::kEndsWith},
      {"contains", Function::kContains},
      {"matches", Function::kMatches},
      {"lowerAscii", Function::kLowerAscii},
      {"upperAscii", Function::kUpperAscii},
      {"quantity", Function::kQuantity},
      {"isQuantity", Function::kIsQuantity},
      {"semver", Function::kSemver},
      {"isSemver", Function::kIsSemver},
      {"compareTo", Function::kCompareTo},
      {"isGreaterThan", Function::kIsGreaterThan},
      {"isLessThan", Function::kIsLessThan},
      {"asInteger", Function::kAsInteger},
      {"asApproximateFloat", Function::kAsApproximateFloat},
      {"isInteger", Function::kIsInteger},
      {"add", Function::kQuantityAdd},
      {"sub", Function::kQuantitySub},
      {"sign", Function::kSign},
      {"major", Function::kMajor},
      {"minor", Function::kMinor},
      {"patch", Function::kPatch},
      {"int", Function::kInt},
      {"uint", Function::kUint},
      {"double", Function::kDouble},
      {"string", Function::kString},
      {"bool", Function::kBool},
      {"dyn", Function::kDyn},
      {"type", Function::kType},
  };
  return kFunctions;
}

// Functions of the extension libraries the DRA environment enables
// (strings v2, Kubernetes lists v1 and regex, sets, optional types),
// evaluated by name; see Extensions.
bool IsExtension(std::string_view name) {
  static constexpr std::string_view kNames[] = {"charAt",
                                                "indexOf",
                                                "lastIndexOf",
                                                "join",
                                                "replace",
                                                "split",
                                                "substring",
                                                "trim",
                                                "format",
                                                "strings.quote",
                                                "find",
                                                "findAll",
                                                "isSorted",
                                                "sum",
                                                "min",
                                                "max",
                                                "includes",
                                                "sets.contains",
                                                "sets.equivalent",
                                                "sets.intersects",
                                                "hasValue",
                                                "value",
                                                "orValue",
                                                "or",
                                                "optional.of",
                                                "optional.none",
                                                "optional.ofNonZeroValue",
                                                "slice",
                                                "flatten",
                                                "sort",
                                                "reverse",
                                                "distinct",
                                                "lists.range"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// Identifiers that name a type, as type() returns them.
bool IsTypeName(std::string_view name) {
  static constexpr std::string_view kNames[] = {"int",  "uint", "double", "string",    "bool",
                                                "list", "map",  "bytes",  "null_type", "type"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// Namespaces whose members are called as ns.function(...).
bool IsNamespace(std::string_view name) {
  return name == "cel" || name == "optional" || name == "sets" || name == "strings" ||
         name == "lists";
}

const std::map<std::string_view, Macro>& Macros() {
  static const std::map<std::string_view, Macro> kMacros = {
      {"all", Macro::kAll},
      {"exists", Macro::kExists},
      {"exists_one", Macro::kExistsOne},
      {"filter", Macro::kFilter},
      {"map", Macro::kMap},
      {"existsOne", Macro::kExistsOne},
      {"transformList", Macro::kTransformList},
      {"transformMapEntry", Macro::kTransformMapEntry},
      {"optMap", Macro::kOptMap},
      {"optFlatMap", Macro::kOptFlatMap},
      {"sortBy", Macro::kSortBy},
      {"transformMap", Macro::kTransformMap},
  };
  return kMacros;
}

bool IsReserved(std::string_view name) {
  static constexpr std::string_view kReserved[] = {
      "as",  "break", "const",   "continue",  "else",   "for", "function", "if",    "import",
      "let", "loop",  "package", "namespace", "return", "var", "void",     "while", "in"};
  return std::find(std::begin(kReserved), std::end(kReserved), name) != std::end(kReserved);
}

// quantity("...") and semver("...") with a valid literal become literals, so
// that selectors do not re-parse them for every device. Invalid literals stay
// calls and fail at evaluation, as CEL reports them.
NodePtr FoldConstant(NodePtr call) {
  bool quantity = call->function == Function::kQuantity;
  if ((!quantity && call->function != Function::kSemver) || call->children.size() != 1 ||
      call->children[0]->kind != NodeKind::kLiteral)
    return call;
  const auto* text = call->children[0]->literal.If<std::string>();
  if (!text) return call;
  Value folded;
  if (quantity) {
    auto q = kube::Quantity::Parse(*text);
    if (!q.ok()) return call;
    folded = Value(*q);
  } else {
    auto v = Semver::Parse(*text);
    if (!v.ok()) return call;
    folded = Value(*v);
  }
  auto node = MakeNode(NodeKind::kLiteral, call->offset);
  node->literal = std::move(folded);
  return node;
}

// s.matches("literal") compiles its pattern once, here, rather than for every
// device. A pattern RE2 rejects stays an error value that evaluation returns
// (with the call's position), as it does for a computed pattern.
void PrecompilePattern(Node& call) {
  bool takes_regex =
      call.function == Function::kMatches || call.name == "find" || call.name == "findAll";
  if (!takes_regex || call.children.size() < 2 || call.children[1]->kind != NodeKind::kLiteral)
    return;
  const auto* pattern = call.children[1]->literal.If<std::string>();
  if (!pattern) return;
  auto regex = Regex::Compile(*pattern);
  if (regex.ok())
    call.regex = std::move(regex).value();
  else
    call.regex_error = regex.status().message();
}

}  // namespace

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
  if (parser.Peek().kind != Token::Kind::kEnd) return parser.Unexpected();
  return root;
}

bool Parser::IsPunct(std::string_view p) const {
  return Peek().kind == Token::Kind::kPunct && Peek().text == p;
}

bool Parser::Accept(std::string_view p) {
  if (!IsPunct(p)) return false;
  ++pos_;
  return true;
}

Status Parser::Expect(std::string_view p) {
  if (Accept(p)) return Status::Ok();
  return ErrorAt(Peek().offset, "expected '" + std::string(p) + "'");
}

Status Parser::ErrorAt(size_t offset, std::string_view what) const {
  return Lexer::SyntaxError(input_, offset, what);
}

Status Parser::Unexpected() const {
  const Token& t = Peek();
  if (t.kind == Token::Kind::kEnd) return ErrorAt(t.offset, "unexpected end of expression");
  std::string text = t.kind == Token::Kind::kPunct || t.kind == Token::Kind::kIdent
                         ? t.text
                         : std::string(input_.substr(t.offset, 1));
  return ErrorAt(t.offset, "unexpected '" + text + "'");
}

// Records the depth of a freshly built node and enforces the nesting limit.
Result<NodePtr> Parser::Finish(NodePtr node) {
  int depth = 0;
  for (const auto& child : node->children) depth = std::max(depth, child->depth);
  node->depth = depth + 1;
  if (node->depth > kMaxDepth)
    return ErrorAt(node->offset,
                   "expression nested more than " + std::to_string(kMaxDepth) + " levels deep");
  return node;
}

Result<NodePtr> Parser::Expr() {
  if (++nesting_ > kMaxDepth) return ErrorAt(Peek().offset, "expression nested too deeply");
  NodePtr cond;
  KUBE_ASSIGN_OR_RETURN(cond, Or());
  if (IsPunct("?")) {
    size_t offset = Peek().offset;
    ++pos_;
    NodePtr yes, no;
    KUBE_ASSIGN_OR_RETURN(yes, Or());
    if (auto s = Expect(":"); !s.ok()) return s;
    KUBE_ASSIGN_OR_RETURN(no, Expr());
    auto node = MakeNode(NodeKind::kConditional, offset);
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
    offsets.push_back(pos_ == 0 ? 0 : tokens_[pos_ - 1].offset);
    NodePtr next;
    KUBE_ASSIGN_OR_RETURN(next, (this->*term)());
    terms.push_back(std::move(next));
  } while (Accept(op));
  if (terms.size() == 1) return std::move(terms[0]);
  return Finish(Balance(kind, terms, 0, terms.size(), offsets));
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
  const Token& t = Peek();
  if (allow_in && t.kind == Token::Kind::kIdent && t.text == "in") return BinaryOp::kIn;
  for (const auto& [text, op] : ops) {
    if (IsPunct(text)) return op;
  }
  return std::nullopt;
}

// operand (op operand)*, folded to the left.
Result<NodePtr> Parser::LeftAssociative(BinaryOps ops, bool allow_in,
                                        Result<NodePtr> (Parser::*operand)()) {
  NodePtr lhs;
  KUBE_ASSIGN_OR_RETURN(lhs, (this->*operand)());
  while (std::optional<BinaryOp> op = MatchOperator(ops, allow_in)) {
    size_t offset = Peek().offset;
    ++pos_;
    NodePtr rhs;
    KUBE_ASSIGN_OR_RETURN(rhs, (this->*operand)());
    KUBE_ASSIGN_OR_RETURN(
        lhs, Finish(MakeBinary(NodeKind::kBinary, *op, std::move(lhs), std::move(rhs), offset)));
  }
  return lhs;
}

Result<NodePtr> Parser::Unary() {
  if (++nesting_ > kMaxDepth) return ErrorAt(Peek().offset, "expression nested too deeply");
  NodePtr result;
  size_t offset = Peek().offset;
  if (Accept("!")) {
    NodePtr operand;
    KUBE_ASSIGN_OR_RETURN(operand, Unary());
    auto node = MakeNode(NodeKind::kNot, offset);
    node->children.push_back(std::move(operand));
    KUBE_ASSIGN_OR_RETURN(result, Finish(std::move(node)));
  } else if (Accept("-")) {
    const Token& t = Peek();
    bool literal = t.kind == Token::Kind::kInt &&
                   !(pos_ + 1 < tokens_.size() && tokens_[pos_ + 1].kind == Token::Kind::kPunct &&
                     (tokens_[pos_ + 1].text == "." || tokens_[pos_ + 1].text == "["));
    if (literal) {
      // -9223372036854775808 is only valid as a negated literal.
      result = MakeNode(NodeKind::kLiteral, offset);
      result->literal = Value(static_cast<int64_t>(0 - t.int_magnitude));
      ++pos_;
    } else {
      NodePtr operand;
      KUBE_ASSIGN_OR_RETURN(operand, Unary());
      auto node = MakeNode(NodeKind::kNeg, offset);
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
    size_t offset = Peek().offset;
    if (Accept(".")) {
      bool optional = Accept("?");
      if (Peek().kind != Token::Kind::kIdent)
        return ErrorAt(Peek().offset, "expected a field name");
      Token name = Peek();
      ++pos_;
      if (IsPunct("(") && !optional) {
        KUBE_ASSIGN_OR_RETURN(node, MemberCall(std::move(node), name));
        continue;
      }
      if (auto s = CheckDeviceField(*node, name); !s.ok()) return s;
      auto select = MakeNode(NodeKind::kSelect, offset);
      select->name = name.text;
      select->optional = optional;
      select->children.push_back(std::move(node));
      KUBE_ASSIGN_OR_RETURN(node, Finish(std::move(select)));
    } else if (Accept("[")) {
      bool optional = Accept("?");
      NodePtr index;
      KUBE_ASSIGN_OR_RETURN(index, Expr());
      if (auto s = Expect("]"); !s.ok()) return s;
      auto select =
          MakeBinary(NodeKind::kIndex, BinaryOp::kEq, std::move(node), std::move(index), offset);
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
  return ErrorAt(field.offset, "undefined field '" + field.text + "'");
}

Result<NodePtr> Parser::Primary() {
  const Token& t = Peek();
  auto literal = [&](Value v) -> Result<NodePtr> {
    auto node = MakeNode(NodeKind::kLiteral, t.offset);
    node->literal = std::move(v);
    ++pos_;
    return node;
  };
  switch (t.kind) {
    case Token::Kind::kInt:
      if (t.int_magnitude > static_cast<uint64_t>(INT64_MAX))
        return ErrorAt(t.offset, "integer literal out of range");
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
        ++pos_;
        NodePtr inner;
        KUBE_ASSIGN_OR_RETURN(inner, Expr());
        if (auto s = Expect(")"); !s.ok()) return s;
        return inner;
      }
      return Unexpected();
    case Token::Kind::kEnd:
      break;
  }
  return Unexpected();
}

Result<NodePtr> Parser::IdentOrCall() {
  Token name = Peek();
  ++pos_;
  if (IsReserved(name.text)) return ErrorAt(name.offset, "reserved word '" + name.text + "'");
  bool shadowed = std::find(scope_.begin(), scope_.end(), name.text) != scope_.end();
  if (!shadowed && IsNamespace(name.text) && IsPunct(".")) return Qualified(name);
  if (IsPunct("(")) {
    if (name.text == "has") return Has(name);
    NodePtr node;
    KUBE_ASSIGN_OR_RETURN(node, CallTo(name));
    ++pos_;
    if (auto s = Args(node->children, ")"); !s.ok()) return s;
    PrecompilePattern(*node);
    return Finish(FoldConstant(std::move(node)));
  }
  if (!shadowed && IsTypeName(name.text)) {
    auto node = MakeNode(NodeKind::kLiteral, name.offset);
    node->literal = Value(TypeValue{name.text});
    return node;
  }
  bool known = name.text == "device" || shadowed;
  if (!known) return ErrorAt(name.offset, "undeclared reference to '" + name.text + "'");
  auto node = MakeNode(NodeKind::kIdent, name.offset);
  node->name = name.text;
  return node;
}

Status Parser::Args(std::vector<NodePtr>& out, std::string_view close) {
  if (Accept(close)) return Status::Ok();
  while (true) {
    // [?x]: an optional element, left out when x is optional.none().
    bool optional_entry = close == "]" && Accept("?");
    NodePtr arg;
    KUBE_ASSIGN_OR_RETURN(arg, Expr());
    arg->optional_entry = optional_entry;
    out.push_back(std::move(arg));
    if (Accept(close)) return Status::Ok();
    if (auto s = Expect(","); !s.ok()) return s;
    if (close == "]" && Accept(close)) return Status::Ok();
  }
}

Result<NodePtr> Parser::ListLiteral() {
  auto node = MakeNode(NodeKind::kList, Peek().offset);
  ++pos_;
  if (auto s = Args(node->children, "]"); !s.ok()) return s;
  return Finish(std::move(node));
}

Result<NodePtr> Parser::MapLiteral() {
  auto node = MakeNode(NodeKind::kMap, Peek().offset);
  ++pos_;
  while (!Accept("}")) {
    NodePtr key, value;
    bool optional_entry = Accept("?");  // {?k: v}: left out when v is optional.none()
    KUBE_ASSIGN_OR_RETURN(key, Expr());
    if (auto s = Expect(":"); !s.ok()) return s;
    KUBE_ASSIGN_OR_RETURN(value, Expr());
    value->optional_entry = optional_entry;
    node->children.push_back(std::move(key));
    node->children.push_back(std::move(value));
    if (Accept("}")) break;
    if (auto s = Expect(","); !s.ok()) return s;
  }
  return Finish(std::move(node));
}

Result<NodePtr> Parser::Has(const Token& name) {
  ++pos_;  // (
  NodePtr arg;
  KUBE_ASSIGN_OR_RETURN(arg, Expr());
  if (auto s = Expect(")"); !s.ok()) return s;
  // As cel-go, has() takes a field selection only: has(m["k"]) and
  // has(x.?f) are compile errors (write "k" in m instead).
  if (arg->kind != NodeKind::kSelect || arg->optional)
    return ErrorAt(name.offset, "invalid argument to has() macro");
  arg->kind = NodeKind::kHas;
  arg->offset = name.offset;
  return arg;
}

// A call node for the function `name` names, arguments still to come.
Result<NodePtr> Parser::CallTo(const Token& name) {
  auto it = Functions().find(name.text);
  bool extension = it == Functions().end() && IsExtension(name.text);
  if (it == Functions().end() && !extension)
    return ErrorAt(name.offset, "undeclared reference to '" + name.text + "'");
  auto node = MakeNode(NodeKind::kCall, name.offset);
  node->function = extension ? Function::kExtension : it->second;
  node->name = name.text;
  return node;
}

// ns.function(args) for the namespaced functions, and the cel.bind macro.
Result<NodePtr> Parser::Qualified(const Token& ns) {
  ++pos_;  // .
  if (Peek().kind != Token::Kind::kIdent) return ErrorAt(Peek().offset, "expected a name");
  Token name = Peek();
  ++pos_;
  name.text = ns.text + "." + name.text;
  name.offset = ns.offset;
  if (!IsPunct("(")) return ErrorAt(name.offset, "undeclared reference to '" + name.text + "'");
  if (name.text == "cel.bind") return Bind(name);
  NodePtr node;
  KUBE_ASSIGN_OR_RETURN(node, CallTo(name));
  ++pos_;
  if (auto s = Args(node->children, ")"); !s.ok()) return s;
  return Finish(std::move(node));
}

// cel.bind(var, init, body): `var` names init's value inside body.
Result<NodePtr> Parser::Bind(const Token& name) {
  ++pos_;  // (
  if (Peek().kind != Token::Kind::kIdent || IsReserved(Peek().text))
    return ErrorAt(Peek().offset, "cel.bind() variable must be a simple identifier");
  auto node = MakeNode(NodeKind::kBind, name.offset);
  node->name = Peek().text;
  ++pos_;
  if (auto s = Expect(","); !s.ok()) return s;
  NodePtr init, body;
  KUBE_ASSIGN_OR_RETURN(init, Expr());
  if (auto s = Expect(","); !s.ok()) return s;
  scope_.push_back(node->name);
  auto parsed = Expr();
  scope_.pop_back();
  if (!parsed.ok()) return parsed.status();
  if (auto s = Expect(")"); !s.ok()) return s;
  node->children.push_back(std::move(init));
  node->children.push_back(std::move(*parsed));
  return Finish(std::move(node));
}

Result<NodePtr> Parser::MemberCall(NodePtr target, const Token& name) {
  if (Macros().count(name.text)) return Comprehension(std::move(target), name);
  NodePtr node;
  KUBE_ASSIGN_OR_RETURN(node, CallTo(name));
  node->has_target = true;
  node->children.push_back(std::move(target));
  ++pos_;  // (
  if (auto s = Args(node->children, ")"); !s.ok()) return s;
  PrecompilePattern(*node);
  return Finish(std::move(node));
}

// all/exists/existsOne take (k, v, predicate) as well as (x, predicate);
// transformList/transformMap always take two variables.
bool Parser::TwoVariables(Macro macro) const {
  if (macro == Macro::kTransformList || macro == Macro::kTransformMap ||
      macro == Macro::kTransformMapEntry)
    return true;
  if (macro != Macro::kAll && macro != Macro::kExists && macro != Macro::kExistsOne) return false;
  // after "(x ,": "v ," starts a two-variable form
  return pos_ + 1 < tokens_.size() && Peek().kind == Token::Kind::kIdent &&
         tokens_[pos_ + 1].kind == Token::Kind::kPunct && tokens_[pos_ + 1].text == ",";
}

Result<NodePtr> Parser::Comprehension(NodePtr target, const Token& name) {
  auto node = MakeNode(NodeKind::kComprehension, name.offset);
  node->macro = Macros().at(name.text);
  ++pos_;  // (
  if (Peek().kind != Token::Kind::kIdent || IsReserved(Peek().text))
    return ErrorAt(Peek().offset, "argument to " + name.text + "() must be a variable name");
  std::string var = Peek().text;
  ++pos_;
  if (auto s = Expect(","); !s.ok()) return s;
  std::string var2;
  if (TwoVariables(node->macro)) {
    if (Peek().kind != Token::Kind::kIdent || IsReserved(Peek().text))
      return ErrorAt(Peek().offset, "argument to " + name.text + "() must be a variable name");
    var2 = Peek().text;
    ++pos_;
    if (var2 == var) return ErrorAt(name.offset, "duplicate variable name '" + var + "'");
    if (auto s = Expect(","); !s.ok()) return s;
  }
  scope_.push_back(var);
  if (!var2.empty()) scope_.push_back(var2);
  node->children.push_back(std::move(target));
  std::vector<NodePtr> args;
  auto status = Args(args, ")");
  scope_.resize(scope_.size() - (var2.empty() ? 1 : 2));
  if (!status.ok()) return status;
  bool transform = node->macro == Macro::kTransformList || node->macro == Macro::kTransformMap ||
                   node->macro == Macro::kTransformMapEntry;
  size_t max_args = node->macro == Macro::kMap || transform ? 2 : 1;
  if (args.empty() || args.size() > max_args)
    return ErrorAt(name.offset, "wrong number of arguments to " + name.text + "()");
  for (auto& arg : args) node->children.push_back(std::move(arg));
  node->name = var;
  node->name2 = var2;
  return Finish(std::move(node));
}

}  // namespace dra::cel
