#include "controller/cel/Operators.h"

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace dra::cel {
namespace {

Value Overflow() { return Value::Error("integer overflow"); }

bool IsNumber(const Value& v) { return v.Is<int64_t>() || v.Is<uint64_t>() || v.Is<double>(); }

// -1/0/1, or nullopt for NaN. Both values are numbers.
std::optional<int> CompareNumbers(const Value& a, const Value& b) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.Is<double>() || b.Is<double>()) {
    auto as_double = [](const Value& v) {
      if (auto* i = v.If<int64_t>()) return static_cast<double>(*i);
      if (auto* u = v.If<uint64_t>()) return static_cast<double>(*u);
      return v.As<double>();
    };
    double x = as_double(a), y = as_double(b);
    if (std::isnan(x) || std::isnan(y)) return std::nullopt;
    return cmp(x, y);
  }
  if (a.Is<int64_t>() && b.Is<int64_t>()) return cmp(a.As<int64_t>(), b.As<int64_t>());
  if (a.Is<uint64_t>() && b.Is<uint64_t>()) return cmp(a.As<uint64_t>(), b.As<uint64_t>());
  if (auto* i = a.If<int64_t>())
    return *i < 0 ? -1 : cmp(static_cast<uint64_t>(*i), b.As<uint64_t>());
  int64_t j = b.As<int64_t>();
  return j < 0 ? 1 : cmp(a.As<uint64_t>(), static_cast<uint64_t>(j));
}

Value CompareOrdered(BinaryOp op, const Value& a, const Value& b) {
  std::optional<int> c;
  if (IsNumber(a) && IsNumber(b)) {
    c = CompareNumbers(a, b);
    if (!c) return Value(false);
  } else if (a.Is<std::string>() && b.Is<std::string>()) {
    int r = a.As<std::string>().compare(b.As<std::string>());
    c = (r > 0) - (r < 0);
  } else if (a.Is<bool>() && b.Is<bool>()) {
    c = static_cast<int>(a.As<bool>()) - static_cast<int>(b.As<bool>());
  } else {
    return Operators::NoOverload(Operators::OpName(op), {&a, &b});
  }
  switch (op) {
    case BinaryOp::kLt:
      return Value(*c < 0);
    case BinaryOp::kLe:
      return Value(*c <= 0);
    case BinaryOp::kGt:
      return Value(*c > 0);
    default:
      return Value(*c >= 0);
  }
}

// Checked int64 or uint64 arithmetic: overflow and division by zero are errors.
template <typename T>
Value IntegerArith(BinaryOp op, T a, T b) {
  T r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      return __builtin_add_overflow(a, b, &r) ? Overflow() : Value(r);
    case BinaryOp::kSub:
      return __builtin_sub_overflow(a, b, &r) ? Overflow() : Value(r);
    case BinaryOp::kMul:
      return __builtin_mul_overflow(a, b, &r) ? Overflow() : Value(r);
    default:
      break;
  }
  bool div = op == BinaryOp::kDiv;
  if (b == 0) return Value::Error(div ? "division by zero" : "modulus by zero");
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == -1) return Overflow();
  }
  return Value(div ? a / b : a % b);
}

Value Arith(BinaryOp op, const Value& a, const Value& b) {
  if (a.Is<int64_t>() && b.Is<int64_t>())
    return IntegerArith<int64_t>(op, a.As<int64_t>(), b.As<int64_t>());
  if (a.Is<uint64_t>() && b.Is<uint64_t>())
    return IntegerArith<uint64_t>(op, a.As<uint64_t>(), b.As<uint64_t>());
  if (a.Is<double>() && b.Is<double>() && op != BinaryOp::kMod) {
    double x = a.As<double>(), y = b.As<double>();
    switch (op) {
      case BinaryOp::kAdd:
        return Value(x + y);
      case BinaryOp::kSub:
        return Value(x - y);
      case BinaryOp::kMul:
        return Value(x * y);
      default:
        return Value(x / y);
    }
  }
  if (op == BinaryOp::kAdd && a.Is<std::string>() && b.Is<std::string>())
    return Value(a.As<std::string>() + b.As<std::string>());
  using ListPtr = std::shared_ptr<const ValueList>;
  if (op == BinaryOp::kAdd && a.Is<ListPtr>() && b.Is<ListPtr>()) {
    auto joined = std::make_shared<ValueList>(*a.As<ListPtr>());
    joined->insert(joined->end(), b.As<ListPtr>()->begin(), b.As<ListPtr>()->end());
    return Value(ListPtr(std::move(joined)));
  }
  return Operators::NoOverload(Operators::OpName(op), {&a, &b});
}

bool SameKind(const Value& a, const Value& b) {
  return a.data().index() == b.data().index() || (IsNumber(a) && IsNumber(b));
}

Value In(const Value& element, const Value& container) {
  if (auto* list = container.If<std::shared_ptr<const ValueList>>()) {
    for (const Value& item : **list) {
      if (!SameKind(element, item)) continue;
      Value eq = Operators::Equal(element, item);
      if (eq.IsError() || eq.As<bool>()) return eq;
    }
    return Value(false);
  }
  Value has = Operators::HasKey(container, element);
  if (has.IsError()) return Operators::NoOverload("@in", {&element, &container});
  return has;
}

Value NoSuchKey(const Value& key) {
  if (key.Is<std::string>()) return Value::Error("no such key: '" + key.As<std::string>() + "'");
  return Value::Error("no such key: " + key.DebugString());
}

template <typename Map>
const typename Map::mapped_type* Find(const Map* map, const Value& key) {
  auto* name = key.If<std::string>();
  if (!name) return nullptr;
  auto it = map->find(*name);
  return it == map->end() ? nullptr : &it->second;
}

std::optional<int64_t> ListIndex(const Value& key) {
  if (auto* i = key.If<int64_t>()) return *i;
  if (auto* u = key.If<uint64_t>())
    return *u > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(*u);
  return std::nullopt;
}

bool IsKeyType(const Value& key) {
  return key.Is<std::string>() || key.Is<int64_t>() || key.Is<uint64_t>() || key.Is<bool>();
}

}  // namespace

std::string_view Operators::OpName(BinaryOp op) {
  static constexpr std::string_view kNames[] = {
      "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "in"};
  return kNames[static_cast<int>(op)];
}

Value Operators::NoOverload(std::string_view function, const std::vector<const Value*>& args) {
  std::string types;
  for (const Value* arg : args) {
    if (!types.empty()) types += ", ";
    types += arg->TypeName();
  }
  return Value::Error("no matching overload for '" + std::string(function) + "' applied to (" +
                      types + ")");
}

Value Operators::Binary(BinaryOp op, const Value& lhs, const Value& rhs) {
  switch (op) {
    case BinaryOp::kEq:
      return Equal(lhs, rhs);
    case BinaryOp::kNe: {
      Value eq = Equal(lhs, rhs);
      if (eq.IsError()) return NoOverload("!=", {&lhs, &rhs});
      return Value(!eq.As<bool>());
    }
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return CompareOrdered(op, lhs, rhs);
    case BinaryOp::kIn:
      return In(lhs, rhs);
    default:
      return Arith(op, lhs, rhs);
  }
}

Value Operators::Equal(const Value& a, const Value& b) {
  if (IsNumber(a) && IsNumber(b)) {
    auto c = CompareNumbers(a, b);
    return Value(c.has_value() && *c == 0);
  }
  if (a.Is<NullValue>() || b.Is<NullValue>()) return Value(a.Is<NullValue>() && b.Is<NullValue>());
  // Heterogeneous equality (cel-go's default): values of different types
  // are unequal. The type checker rejects 1 == "a" when both types are
  // known; attributes are dyn, so device.attributes[d].model == 1 is false.
  if (a.data().index() != b.data().index()) return Value(false);
  if (auto* t = a.If<TypeValue>()) return Value(t->name == b.As<TypeValue>().name);
  if (auto* o = a.If<OptionalValue>()) {
    const auto& x = o->value;
    const auto& y = b.As<OptionalValue>().value;
    if (!x || !y) return Value(!x && !y);
    return Equal(*x, *y);
  }
  if (auto* s = a.If<std::string>()) return Value(*s == b.As<std::string>());
  if (auto* x = a.If<bool>()) return Value(*x == b.As<bool>());
  if (auto* q = a.If<kube::Quantity>()) return Value(*q == b.As<kube::Quantity>());
  if (auto* v = a.If<Semver>()) return Value(v->Compare(b.As<Semver>()) == 0);
  if (auto* l = a.If<std::shared_ptr<const ValueList>>()) {
    const auto& r = *b.As<std::shared_ptr<const ValueList>>();
    if ((*l)->size() != r.size()) return Value(false);
    for (size_t i = 0; i < r.size(); ++i) {
      Value eq = Equal((**l)[i], r[i]);
      if (eq.IsError() || !eq.As<bool>()) return eq;
    }
    return Value(true);
  }
  if (auto* m = a.If<std::shared_ptr<const ValueMap>>()) {
    const auto& r = *b.As<std::shared_ptr<const ValueMap>>();
    if ((*m)->size() != r.size()) return Value(false);
    for (const auto& [key, value] : **m) {
      Value other = Index(b, key);
      if (other.IsError()) return Value(false);
      Value eq = Equal(value, other);
      if (eq.IsError() || !eq.As<bool>()) return eq;
    }
    return Value(true);
  }
  return NoOverload("==", {&a, &b});
}

Value Operators::Negate(const Value& v) {
  if (auto* i = v.If<int64_t>()) return *i == INT64_MIN ? Overflow() : Value(-*i);
  if (auto* d = v.If<double>()) return Value(-*d);
  return NoOverload("-_", {&v});
}

Value Operators::Index(const Value& container, const Value& key) {
  if (auto* list = container.If<std::shared_ptr<const ValueList>>()) {
    auto index = ListIndex(key);
    if (!index) return NoOverload("_[_]", {&container, &key});
    if (*index < 0 || static_cast<size_t>(*index) >= (*list)->size())
      return Value::Error("index out of range: " + key.DebugString());
    return (**list)[*index];
  }
  if (auto* map = container.If<std::shared_ptr<const ValueMap>>()) {
    if (!IsKeyType(key)) return NoOverload("_[_]", {&container, &key});
    for (const auto& [k, v] : **map) {
      if (!SameKind(k, key)) continue;
      Value eq = Equal(k, key);
      if (!eq.IsError() && eq.As<bool>()) return v;
    }
    return NoSuchKey(key);
  }
  if (!key.Is<std::string>()) return NoOverload("_[_]", {&container, &key});
  // As upstream, a domain the device has nothing in reads as an empty map,
  // so only the attribute lookup inside it can fail.
  if (auto* ref = container.If<AttributesRef>()) {
    static const AttributeDomain kNoAttributes;
    auto* domain = Find(ref->map, key);
    return Value(AttributeDomainRef{domain ? domain : &kNoAttributes});
  }
  if (auto* ref = container.If<AttributeDomainRef>()) {
    auto* attribute = Find(ref->map, key);
    return attribute ? Value::FromAttribute(*attribute) : NoSuchKey(key);
  }
  if (auto* ref = container.If<CapacityRef>()) {
    static const CapacityDomain kNoCapacity;
    auto* domain = Find(ref->map, key);
    return Value(CapacityDomainRef{domain ? domain : &kNoCapacity});
  }
  if (auto* ref = container.If<CapacityDomainRef>()) {
    auto* quantity = Find(ref->map, key);
    return quantity ? Value(*quantity) : NoSuchKey(key);
  }
  if (container.Is<DeviceRef>()) return Field(container, key.As<std::string>());
  return NoOverload("_[_]", {&container, &key});
}

Value Operators::Field(const Value& container, std::string_view name) {
  if (auto* ref = container.If<DeviceRef>()) {
    const Device& d = *ref->device;
    if (name == "driver") return Value(d.driver);
    if (name == "attributes") return Value(AttributesRef{&d.attributes});
    if (name == "capacity") return Value(CapacityRef{&d.capacity});
    if (name == "allowMultipleAllocations") return Value(d.allow_multiple_allocations);
    return Value::Error("no such field: '" + std::string(name) + "'");
  }
  if (container.Is<std::shared_ptr<const ValueMap>>() || container.Is<AttributesRef>() ||
      container.Is<AttributeDomainRef>() || container.Is<CapacityRef>() ||
      container.Is<CapacityDomainRef>())
    return Index(container, Value(std::string(name)));
  return Value::Error("type '" + std::string(container.TypeName()) +
                      "' does not support field selection ('" + std::string(name) + "')");
}

Value Operators::HasKey(const Value& container, const Value& key) {
  if (auto* ref = container.If<DeviceRef>()) {
    (void)ref;
    Value field = Field(container, key.Is<std::string>() ? key.As<std::string>() : "");
    return Value(!field.IsError());
  }
  if (container.Is<std::shared_ptr<const ValueList>>()) return NoOverload("has", {&container});
  bool map_like = container.Is<std::shared_ptr<const ValueMap>>() ||
                  container.Is<AttributesRef>() || container.Is<AttributeDomainRef>() ||
                  container.Is<CapacityRef>() || container.Is<CapacityDomainRef>();
  if (!map_like) return NoOverload("has", {&container});
  if (!IsKeyType(key)) return NoOverload("has", {&container, &key});
  // Presence of a domain is whether the device has anything in it.
  if (auto* ref = container.If<AttributesRef>()) return Value(Find(ref->map, key) != nullptr);
  if (auto* ref = container.If<CapacityRef>()) return Value(Find(ref->map, key) != nullptr);
  return Value(!Index(container, key).IsError());
}

Value Operators::Elements(const Value& range, std::vector<Value>& out) {
  if (auto* list = range.If<std::shared_ptr<const ValueList>>()) {
    out = **list;
    return Value(true);
  }
  if (auto* map = range.If<std::shared_ptr<const ValueMap>>()) {
    for (const auto& entry : **map) out.push_back(entry.first);
    return Value(true);
  }
  auto keys = [&out](const auto* map) {
    for (const auto& entry : *map) out.push_back(Value(entry.first));
    return Value(true);
  };
  if (auto* ref = range.If<AttributesRef>()) return keys(ref->map);
  if (auto* ref = range.If<AttributeDomainRef>()) return keys(ref->map);
  if (auto* ref = range.If<CapacityRef>()) return keys(ref->map);
  if (auto* ref = range.If<CapacityDomainRef>()) return keys(ref->map);
  return Value::Error("cannot iterate over type '" + std::string(range.TypeName()) + "'");
}

}  // namespace dra::cel
