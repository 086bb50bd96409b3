#include "controller/cel/ListsLibrary.h"

#include "controller/cel/Operators.h"

namespace dra::cel {
namespace {

using ListPtr = std::shared_ptr<const ValueList>;

Value NoOverload(const Node& call, const std::vector<Value>& args) {
  std::vector<const Value*> pointers;
  for (const Value& arg : args) pointers.push_back(&arg);
  return Operators::NoOverload(call.name, pointers);
}

bool Equal(const Value& a, const Value& b) {
  Value eq = Operators::Equal(a, b);
  return eq.Is<bool>() && eq.As<bool>();
}

}  // namespace

bool ListsLibrary::Handles(std::string_view name, const std::vector<Value>& args) {
  if (name == "indexOf" || name == "lastIndexOf") return !args.empty() && args[0].Is<ListPtr>();
  return name == "isSorted" || name == "sum" || name == "min" || name == "max" ||
         name == "includes" || name.starts_with("sets.");
}

Value ListsLibrary::Call(const Node& call, const std::vector<Value>& args) {
  const std::string& name = call.name;
  if (name == "includes" && call.has_target && args.size() == 2) {
    if (auto* list = args[0].If<ListPtr>()) return Value(Contains(**list, args[1]));
    return Value(Equal(args[0], args[1]));
  }
  if (name.starts_with("sets.")) {
    if (call.has_target || args.size() != 2 || !args[0].Is<ListPtr>() || !args[1].Is<ListPtr>())
      return NoOverload(call, args);
    return Sets(call, *args[0].As<ListPtr>(), *args[1].As<ListPtr>());
  }
  if (!call.has_target || args.empty() || !args[0].Is<ListPtr>()) return NoOverload(call, args);
  const ValueList& list = *args[0].As<ListPtr>();
  if (args.size() == 2 && (name == "indexOf" || name == "lastIndexOf"))
    return Position(list, args[1], name == "lastIndexOf");
  if (args.size() != 1) return NoOverload(call, args);
  if (name == "isSorted") return IsSorted(list);
  if (name == "sum") return Sum(call, list);
  return Extreme(call, list, name == "max");
}

bool ListsLibrary::Contains(const ValueList& list, const Value& element) {
  for (const Value& item : list)
    if (Equal(item, element)) return true;
  return false;
}

Value ListsLibrary::Position(const ValueList& list, const Value& element, bool last) {
  int64_t found = -1;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!Equal(list[i], element)) continue;
    found = static_cast<int64_t>(i);
    if (!last) break;
  }
  return Value(found);
}

Value ListsLibrary::IsSorted(const ValueList& list) {
  for (size_t i = 1; i < list.size(); ++i) {
    Value gt = Operators::Binary(BinaryOp::kGt, list[i - 1], list[i]);
    if (gt.IsError() || gt.As<bool>()) return gt.IsError() ? gt : Value(false);
  }
  return Value(true);
}

Value ListsLibrary::Sum(const Node& call, const ValueList& list) {
  if (list.empty()) return Value(int64_t{0});
  Value total = list[0];
  if (!total.Is<int64_t>() && !total.Is<uint64_t>() && !total.Is<double>())
    return Operators::NoOverload(call.name, {&total});
  for (size_t i = 1; i < list.size(); ++i) {
    total = Operators::Binary(BinaryOp::kAdd, total, list[i]);
    if (total.IsError()) return total;
  }
  return total;
}

Value ListsLibrary::Extreme(const Node& call, const ValueList& list, bool max) {
  if (list.empty()) return Value::Error(call.name + "(list) argument must not be empty");
  Value best = list[0];
  for (size_t i = 1; i < list.size(); ++i) {
    Value better = Operators::Binary(max ? BinaryOp::kGt : BinaryOp::kLt, list[i], best);
    if (better.IsError()) return better;
    if (better.As<bool>()) best = list[i];
  }
  return best;
}

Value ListsLibrary::Sets(const Node& call, const ValueList& a, const ValueList& b) {
  auto contains_all = [](const ValueList& x, const ValueList& y) {
    for (const Value& v : y)
      if (!Contains(x, v)) return false;
    return true;
  };
  if (call.name == "sets.contains") return Value(contains_all(a, b));
  if (call.name == "sets.equivalent") return Value(contains_all(a, b) && contains_all(b, a));
  if (call.name == "sets.intersects") {
    for (const Value& v : b)
      if (Contains(a, v)) return Value(true);
    return Value(false);
  }
  std::vector<Value> args{Value(ListPtr(std::make_shared<ValueList>(a))),
                          Value(ListPtr(std::make_shared<ValueList>(b)))};
  return NoOverload(call, args);
}

}  // namespace dra::cel
