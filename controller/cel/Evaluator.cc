#include "controller/cel/Evaluator.h"

#include <algorithm>

#include "controller/cel/Functions.h"
#include "controller/cel/ListsExtension.h"
#include "controller/cel/Operators.h"

namespace dra::cel {
namespace {

Value NotBool(std::string_view op, const Value& v) { return Operators::NoOverload(op, {&v}); }

uint64_t LinearSize(const Value& v) {
  if (auto* s = v.If<std::string>()) return s->size();
  if (auto* l = v.If<std::shared_ptr<const ValueList>>()) return (*l)->size();
  return 0;
}

// Functions whose work grows with their input; the rest cost one unit.
bool IsLinear(Function f) {
  return f == Function::kContains || f == Function::kStartsWith || f == Function::kEndsWith ||
         f == Function::kMatches || f == Function::kLowerAscii || f == Function::kUpperAscii ||
         f == Function::kExtension;
}

// An optional entry of a list or map literal: false when it is none (leave
// it out); otherwise `v` becomes the value inside, or an error when `v` is
// not optional at all.
bool Unwrap(Value& v) {
  auto* optional = v.If<OptionalValue>();
  if (!optional) {
    v = Operators::NoOverload("optional entry", {&v});
    return true;
  }
  if (!optional->value) return false;
  Value inner = *optional->value;
  v = std::move(inner);
  return true;
}

// Selecting on optional.of(x) selects on x and stays optional.
Value OptionalSelect(const Value& operand, const Value& key, bool field) {
  const auto& inner = operand.As<OptionalValue>().value;
  if (!inner) return operand;
  if (inner->Is<std::shared_ptr<const ValueList>>()) {
    Value v = Operators::Index(*inner, key);
    if (v.IsError())
      return v.As<ErrorValue>().message.starts_with("index out of range")
                 ? Value::Optional(std::nullopt)
                 : v;
    return Value::Optional(std::move(v));
  }
  Value has = Operators::HasKey(*inner, key);
  if (has.IsError() || !has.As<bool>()) return Value::Optional(std::nullopt);
  Value v = field ? Operators::Field(*inner, key.As<std::string>()) : Operators::Index(*inner, key);
  if (v.IsError()) return v;
  return Value::Optional(std::move(v));
}

}  // namespace

Value Evaluator::Eval(const Node& node) {
  if (node.kind != NodeKind::kLiteral && ++cost_ > cost_limit_)
    return Value(ErrorValue{CostLimitMessage(), node.offset});
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
    case NodeKind::kBind:
      return Bind(node);
  }
  return Value::Error("unknown expression");
}

Value Evaluator::Ident(const Node& node) {
  for (size_t i = vars_.size(); i-- > 0;)
    if (vars_[i].first == node.name) return Resolve(i);
  return Value(DeviceRef{&device_});
}

// A cel.bind variable is evaluated when first used (cel-go binds lazily:
// cel.bind(x, 1 / 0, true) is true), in the scope the bind was written in.
Value Evaluator::Resolve(size_t index) {
  auto pending = std::find_if(pending_.begin(), pending_.end(),
                              [&](const auto& p) { return p.first == index; });
  if (pending == pending_.end()) return vars_[index].second;
  const Node& init = *pending->second;
  pending_.erase(pending);
  std::vector<std::pair<std::string_view, Value>> inner(vars_.begin() + index + 1, vars_.end());
  vars_.resize(index + 1);
  Value v = Eval(init);
  vars_.insert(vars_.end(), inner.begin(), inner.end());
  vars_[index].second = v;
  return v;
}

Value Evaluator::Select(const Node& node) {
  Value operand = Eval(*node.children[0]);
  if (operand.IsError()) return operand;
  if (operand.Is<OptionalValue>()) return OptionalSelect(operand, Value(node.name), true);
  if (node.optional) return OptionalSelect(Value::Optional(operand), Value(node.name), true);
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
  if (operand.Is<OptionalValue>()) return OptionalSelect(operand, key, false);
  if (node.optional) return OptionalSelect(Value::Optional(operand), key, false);
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
  // + on strings and lists copies them; ==, < and in traverse them.
  cost_ += (LinearSize(lhs) + LinearSize(rhs)) / 10;
  if (cost_exceeded()) return Value::Error(CostLimitMessage());
  return Operators::Binary(node.op, lhs, rhs);
}

Value Evaluator::List(const Node& node) {
  auto list = std::make_shared<ValueList>();
  list->reserve(node.children.size());
  for (const auto& child : node.children) {
    Value v = Eval(*child);
    if (v.IsError()) return v;
    if (child->optional_entry && !Unwrap(v)) continue;
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
    if (node.children[i + 1]->optional_entry && !Unwrap(value)) continue;
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
  if (IsLinear(node.function)) ChargeArguments(node, args);
  if (cost_exceeded()) return Value::Error(CostLimitMessage());
  Value result = Functions::Call(node, args);
  // What a function builds (replace, split, format, ...) is paid for too,
  // so repeated growth cannot outrun the limit.
  if (IsLinear(node.function)) cost_ += LinearSize(result) / 10;
  return result;
}

void Evaluator::ChargeArguments(const Node& node, const std::vector<Value>& args) {
  uint64_t size = 0;
  for (const Value& arg : args) size += LinearSize(arg);
  // matches() and find() scan the text once per pattern state; charge the
  // pattern's length too, as upstream's regex cost does.
  if ((node.function == Function::kMatches || node.name == "find" || node.name == "findAll") &&
      args.size() >= 2)
    size += LinearSize(args[0]) * LinearSize(args[1]);
  cost_ += size / 10;
}

Value Evaluator::Bind(const Node& node) {
  size_t index = vars_.size();
  vars_.emplace_back(node.name, Value());
  pending_.emplace_back(index, node.children[0].get());
  Value result = Eval(*node.children[1]);
  std::erase_if(pending_, [&](const auto& p) { return p.first == index; });
  vars_.pop_back();
  return result;
}

Value Evaluator::Comprehension(const Node& node) {
  Value range = Eval(*node.children[0]);
  if (range.IsError()) return range;
  if (node.macro == Macro::kOptMap || node.macro == Macro::kOptFlatMap)
    return OptionalMacro(node, range);
  if (node.macro == Macro::kSortBy) return SortBy(node, range);
  std::vector<Value> keys;
  Value ok = Operators::Elements(range, keys);
  if (ok.IsError()) return ok;
  bool is_list = range.Is<std::shared_ptr<const ValueList>>();
  Entries entries;
  entries.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (is_list) {
      entries.emplace_back(Value(static_cast<int64_t>(i)), std::move(keys[i]));
      continue;
    }
    Value value = node.name2.empty() ? Value() : Operators::Index(range, keys[i]);
    if (value.IsError()) return value;
    entries.emplace_back(std::move(keys[i]), std::move(value));
  }
  vars_.emplace_back(node.name, Value());
  if (!node.name2.empty()) vars_.emplace_back(node.name2, Value());
  bool transform = node.macro == Macro::kTransformList || node.macro == Macro::kTransformMap ||
                   node.macro == Macro::kTransformMapEntry;
  Value result = transform ? Transform(node, entries, is_list) : Fold(node, entries, is_list);
  vars_.resize(vars_.size() - (node.name2.empty() ? 1 : 2));
  return result;
}

// One variable: a list's element or a map's key. Two: index or key, then value.
void Evaluator::SetVars(const Node& node, const std::pair<Value, Value>& entry, bool is_list) {
  if (node.name2.empty()) {
    vars_.back().second = is_list ? entry.second : entry.first;
    return;
  }
  vars_[vars_.size() - 2].second = entry.first;
  vars_.back().second = entry.second;
}

Value Evaluator::Fold(const Node& node, const Entries& range, bool is_list) {
  const Node& predicate = *node.children[1];
  Value error;
  int64_t count = 0;
  auto out = std::make_shared<ValueList>();
  bool quantifier = node.macro == Macro::kAll || node.macro == Macro::kExists;
  bool decisive = node.macro == Macro::kExists;  // the value that ends all/exists
  for (const auto& entry : range) {
    if (++cost_ > cost_limit_) return Value::Error(CostLimitMessage());  // one loop step
    SetVars(node, entry, is_list);
    const Value& element = vars_.back().second;
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

// optMap(x, expr): optional.of(expr) with x bound to the value, or none;
// optFlatMap(x, expr): expr (an optional) likewise.
Value Evaluator::OptionalMacro(const Node& node, const Value& target) {
  auto* optional = target.If<OptionalValue>();
  if (!optional)
    return Operators::NoOverload(node.macro == Macro::kOptMap ? "optMap" : "optFlatMap", {&target});
  if (!optional->value) return target;
  vars_.emplace_back(node.name, *optional->value);
  Value v = Eval(*node.children[1]);
  vars_.pop_back();
  if (v.IsError()) return v;
  if (node.macro == Macro::kOptMap) return Value::Optional(std::move(v));
  if (!v.Is<OptionalValue>()) return Operators::NoOverload("optFlatMap", {&v});
  return v;
}

// list.sortBy(x, key): the keys, then ListsExtension sorts by them.
Value Evaluator::SortBy(const Node& node, const Value& target) {
  auto* list = target.If<std::shared_ptr<const ValueList>>();
  if (!list) return Operators::NoOverload("sortBy", {&target});
  ValueList keys;
  vars_.emplace_back(node.name, Value());
  for (const Value& element : **list) {
    if (++cost_ > cost_limit_) break;
    vars_.back().second = element;
    keys.push_back(Eval(*node.children[1]));
    if (keys.back().IsError()) break;
  }
  vars_.pop_back();
  if (cost_exceeded()) return Value::Error(CostLimitMessage());
  if (!keys.empty() && keys.back().IsError()) return keys.back();
  return ListsExtension::SortBy(**list, keys);
}

// transformMapEntry: each step yields a map whose entries join the result;
// a key seen twice is an error, as cel-go's map insertion reports it.
Value Evaluator::MergeEntry(ValueMap& out, const Value& entry) {
  auto* map = entry.If<std::shared_ptr<const ValueMap>>();
  if (!map) return Operators::NoOverload("transformMapEntry", {&entry});
  for (const auto& [key, value] : **map) {
    for (const auto& existing : out) {
      Value eq = Operators::Equal(existing.first, key);
      if (eq.Is<bool>() && eq.As<bool>())
        return Value::Error("insert failed: key " + key.DebugString() + " already exists");
    }
    out.emplace_back(key, value);
  }
  return Value(true);
}

// transformList(i, v, [filter,] expr) and transformMap(k, v, [filter,] expr).
Value Evaluator::Transform(const Node& node, const Entries& range, bool is_list) {
  bool filtered = node.children.size() == 3;
  const Node& expr = *node.children.back();
  auto list = std::make_shared<ValueList>();
  auto map = std::make_shared<ValueMap>();
  for (const auto& entry : range) {
    if (++cost_ > cost_limit_) return Value::Error(CostLimitMessage());  // one loop step
    SetVars(node, entry, is_list);
    if (filtered) {
      Value keep = Eval(*node.children[1]);
      if (keep.IsError()) return keep;
      if (!keep.Is<bool>()) return NotBool(node.name, keep);
      if (!keep.As<bool>()) continue;
    }
    Value v = Eval(expr);
    if (v.IsError()) return v;
    if (node.macro == Macro::kTransformList) {
      list->push_back(std::move(v));
    } else if (node.macro == Macro::kTransformMap) {
      map->emplace_back(entry.first, std::move(v));
    } else {
      Value merged = MergeEntry(*map, v);
      if (merged.IsError()) return merged;
    }
  }
  if (node.macro == Macro::kTransformList) return Value(std::shared_ptr<const ValueList>(list));
  return Value(std::shared_ptr<const ValueMap>(map));
}

}  // namespace dra::cel
