#include "controller/cel/Evaluator.h"

#include "controller/cel/Functions.h"
#include "controller/cel/Operators.h"

namespace dra::cel {
namespace {

Value NotBool(std::string_view op, const Value& v) { return Operators::NoOverload(op, {&v}); }

}  // namespace

Value Evaluator::Eval(const Node& node) {
  Value v = EvalNode(node);
  if (!v.IsError() || v.As<ErrorValue>().offset.has_value()) return v;
  ErrorValue located = v.As<ErrorValue>();
  located.offset = node.offset;
  return Value(std::move(located));
}

Value Evaluator::EvalNode(const Node& node) {
  switch (node.kind) {
    case NodeKind::kLiteral:
      return node.literal;
    case NodeKind::kIdent:
      return Ident(node);
    case NodeKind::kSelect:
      return Select(node);
    case NodeKind::kHas:
      return Has(node);
    case NodeKind::kIndex:
      return Index(node);
    case NodeKind::kCall:
      return Call(node);
    case NodeKind::kAnd:
      return And(node);
    case NodeKind::kOr:
      return Or(node);
    case NodeKind::kNot:
      return Not(node);
    case NodeKind::kNeg:
      return Neg(node);
    case NodeKind::kConditional:
      return Conditional(node);
    case NodeKind::kBinary:
      return Binary(node);
    case NodeKind::kList:
      return List(node);
    case NodeKind::kMap:
      return Map(node);
    case NodeKind::kComprehension:
      return Comprehension(node);
  }
  return Value::Error("unknown expression");
}

Value Evaluator::Ident(const Node& node) {
  for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
    if (it->first == node.name) return it->second;
  return Value(DeviceRef{&device_});
}

Value Evaluator::Select(const Node& node) {
  Value operand = Eval(*node.children[0]);
  if (operand.IsError()) return operand;
  return Operators::Field(operand, node.name);
}

Value Evaluator::Has(const Node& node) {
  Value operand = Eval(*node.children[0]);
  if (operand.IsError()) return operand;
  if (node.children.size() == 1) return Operators::HasKey(operand, Value(node.name));
  Value key = Eval(*node.children[1]);
  if (key.IsError()) return key;
  return Operators::HasKey(operand, key);
}

Value Evaluator::Index(const Node& node) {
  Value operand = Eval(*node.children[0]);
  if (operand.IsError()) return operand;
  Value key = Eval(*node.children[1]);
  if (key.IsError()) return key;
  return Operators::Index(operand, key);
}

// CEL's commutative logic: a false operand decides &&, whatever the other
// operand is (even an error); otherwise an error wins.
Value Evaluator::And(const Node& node) {
  Value lhs = Eval(*node.children[0]);
  if (lhs.Is<bool>() && !lhs.As<bool>()) return lhs;
  Value rhs = Eval(*node.children[1]);
  if (rhs.Is<bool>() && !rhs.As<bool>()) return rhs;
  if (lhs.IsError()) return lhs;
  if (!lhs.Is<bool>()) return NotBool("&&", lhs);
  if (rhs.IsError()) return rhs;
  if (!rhs.Is<bool>()) return NotBool("&&", rhs);
  return Value(true);
}

Value Evaluator::Or(const Node& node) {
  Value lhs = Eval(*node.children[0]);
  if (lhs.Is<bool>() && lhs.As<bool>()) return lhs;
  Value rhs = Eval(*node.children[1]);
  if (rhs.Is<bool>() && rhs.As<bool>()) return rhs;
  if (lhs.IsError()) return lhs;
  if (!lhs.Is<bool>()) return NotBool("||", lhs);
  if (rhs.IsError()) return rhs;
  if (!rhs.Is<bool>()) return NotBool("||", rhs);
  return Value(false);
}

Value Evaluator::Not(const Node& node) {
  Value v = Eval(*node.children[0]);
  if (v.IsError()) return v;
  if (!v.Is<bool>()) return NotBool("!_", v);
  return Value(!v.As<bool>());
}

Value Evaluator::Neg(const Node& node) {
  Value v = Eval(*node.children[0]);
  if (v.IsError()) return v;
  return Operators::Negate(v);
}

Value Evaluator::Conditional(const Node& node) {
  Value cond = Eval(*node.children[0]);
  if (cond.IsError()) return cond;
  if (!cond.Is<bool>()) return NotBool("_?_:_", cond);
  return Eval(*node.children[cond.As<bool>() ? 1 : 2]);
}

Value Evaluator::Binary(const Node& node) {
  Value lhs = Eval(*node.children[0]);
  if (lhs.IsError()) return lhs;
  Value rhs = Eval(*node.children[1]);
  if (rhs.IsError()) return rhs;
  return Operators::Binary(node.op, lhs, rhs);
}

Value Evaluator::List(const Node& node) {
  auto list = std::make_shared<ValueList>();
  list->reserve(node.children.size());
  for (const auto& child : node.children) {
    Value v = Eval(*child);
    if (v.IsError()) return v;
    list->push_back(std::move(v));
  }
  return Value(std::shared_ptr<const ValueList>(std::move(list)));
}

Value Evaluator::Map(const Node& node) {
  auto map = std::make_shared<ValueMap>();
  for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
    Value key = Eval(*node.children[i]);
    if (key.IsError()) return key;
    if (!(key.Is<std::string>() || key.Is<int64_t>() || key.Is<uint64_t>() || key.Is<bool>()))
      return Value::Error("unsupported map key type: " + std::string(key.TypeName()));
    Value value = Eval(*node.children[i + 1]);
    if (value.IsError()) return value;
    for (const auto& entry : *map) {
      if (entry.first.data().index() != key.data().index()) continue;
      Value eq = Operators::Equal(entry.first, key);
      if (!eq.IsError() && eq.As<bool>())
        return Value::Error("duplicate map key: " + key.DebugString());
    }
    map->emplace_back(std::move(key), std::move(value));
  }
  return Value(std::shared_ptr<const ValueMap>(std::move(map)));
}

Value Evaluator::Call(const Node& node) {
  std::vector<Value> args;
  args.reserve(node.children.size());
  for (const auto& child : node.children) {
    Value v = Eval(*child);
    if (v.IsError()) return v;
    args.push_back(std::move(v));
  }
  return Functions::Call(node, args);
}

Value Evaluator::Comprehension(const Node& node) {
  Value range = Eval(*node.children[0]);
  if (range.IsError()) return range;
  std::vector<Value> elements;
  Value ok = Operators::Elements(range, elements);
  if (ok.IsError()) return ok;
  vars_.emplace_back(node.name, Value());
  Value result = Fold(node, elements);
  vars_.pop_back();
  return result;
}

Value Evaluator::Fold(const Node& node, const std::vector<Value>& range) {
  const Node& predicate = *node.children[1];
  Value error;
  int64_t count = 0;
  auto out = std::make_shared<ValueList>();
  bool quantifier = node.macro == Macro::kAll || node.macro == Macro::kExists;
  bool decisive = node.macro == Macro::kExists;  // the value that ends all/exists
  for (const Value& element : range) {
    vars_.back().second = element;
    Value v = Eval(predicate);
    bool is_bool = v.Is<bool>();
    if (node.macro == Macro::kMap && node.children.size() == 2) {
      if (v.IsError()) return v;
      out->push_back(std::move(v));
      continue;
    }
    if (!is_bool) {
      Value failure = v.IsError() ? v : NotBool(node.name, v);
      if (!quantifier) return failure;
      if (!error.IsError()) error = failure;
      continue;
    }
    bool b = v.As<bool>();
    if (quantifier && b == decisive) return Value(decisive);
    if (node.macro == Macro::kExistsOne) count += b;
    if (node.macro == Macro::kFilter && b) out->push_back(element);
    if (node.macro == Macro::kMap && b) {
      Value mapped = Eval(*node.children[2]);
      if (mapped.IsError()) return mapped;
      out->push_back(std::move(mapped));
    }
  }
  if (quantifier) return error.IsError() ? error : Value(!decisive);
  if (node.macro == Macro::kExistsOne) return Value(count == 1);
  return Value(std::shared_ptr<const ValueList>(std::move(out)));
}

}  // namespace dra::cel
