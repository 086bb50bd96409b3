#include "controller/cel/Optionals.h"

#include "controller/cel/Operators.h"

namespace dra::cel {
namespace {

Value NoOverload(const Node& call, const std::vector<Value>& args) {
  std::vector<const Value*> pointers;
  for (const Value& arg : args) pointers.push_back(&arg);
  return Operators::NoOverload(call.name, pointers);
}

}  // namespace

bool Optionals::Handles(std::string_view name) {
  return name.starts_with("optional.") || name == "hasValue" || name == "value" ||
         name == "orValue" || name == "or";
}

// The zero value of each type, for optional.ofNonZeroValue().
bool Optionals::IsZero(const Value& v) {
  if (v.Is<NullValue>()) return true;
  if (auto* b = v.If<bool>()) return !*b;
  if (auto* i = v.If<int64_t>()) return *i == 0;
  if (auto* u = v.If<uint64_t>()) return *u == 0;
  if (auto* d = v.If<double>()) return *d == 0;
  if (auto* s = v.If<std::string>()) return s->empty();
  if (auto* l = v.If<std::shared_ptr<const ValueList>>()) return (*l)->empty();
  if (auto* m = v.If<std::shared_ptr<const ValueMap>>()) return (*m)->empty();
  return false;
}

Value Optionals::Call(const Node& call, const std::vector<Value>& args) {
  const std::string& name = call.name;
  if (name == "optional.none" && args.empty()) return Value::Optional(std::nullopt);
  if (name == "optional.of" && args.size() == 1) return Value::Optional(args[0]);
  if (name == "optional.ofNonZeroValue" && args.size() == 1)
    return IsZero(args[0]) ? Value::Optional(std::nullopt) : Value::Optional(args[0]);
  if (!call.has_target || args.empty() || !args[0].Is<OptionalValue>())
    return NoOverload(call, args);
  const auto& inner = args[0].As<OptionalValue>().value;
  if (name == "hasValue" && args.size() == 1) return Value(inner != nullptr);
  if (name == "value" && args.size() == 1)
    return inner ? *inner : Value::Error("optional.none() dereference");
  if (name == "orValue" && args.size() == 2) return inner ? *inner : args[1];
  if (name == "or" && args.size() == 2 && args[1].Is<OptionalValue>())
    return inner ? args[0] : args[1];
  return NoOverload(call, args);
}

}  // namespace dra::cel
