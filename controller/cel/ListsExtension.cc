#include "controller/cel/ListsExtension.h"

#include <algorithm>

#include "controller/cel/Operators.h"

namespace dra::cel {
namespace {

using ListPtr = std::shared_ptr<const ValueList>;

Value NoOverload(const Node& call, const std::vector<Value>& args) {
  std::vector<const Value*> pointers;
  for (const Value& arg : args) pointers.push_back(&arg);
  return Operators::NoOverload(call.name, pointers);
}

Value Wrap(ValueList list) { return Value(ListPtr(std::make_shared<ValueList>(std::move(list)))); }

void FlattenInto(const ValueList& list, int64_t depth, ValueList& out) {
  for (const Value& item : list) {
    auto* inner = item.If<ListPtr>();
    if (inner && depth > 0)
      FlattenInto(**inner, depth - 1, out);
    else
      out.push_back(item);
  }
}

}  // namespace

bool ListsExtension::Handles(std::string_view name) {
  return name == "slice" || name == "flatten" || name == "sort" || name == "reverse" ||
         name == "distinct" || name == "lists.range";
}

Value ListsExtension::Call(const Node& call, const std::vector<Value>& args) {
  const std::string& name = call.name;
  if (name == "lists.range") {
    if (call.has_target || args.size() != 1 || !args[0].Is<int64_t>())
      return NoOverload(call, args);
    return Range(args[0].As<int64_t>());
  }
  if (!call.has_target || args.empty() || !args[0].Is<ListPtr>()) return NoOverload(call, args);
  const ValueList& list = *args[0].As<ListPtr>();
  size_t n = args.size();
  if (name == "slice" && n == 3 && args[1].Is<int64_t>() && args[2].Is<int64_t>())
    return Slice(list, args[1].As<int64_t>(), args[2].As<int64_t>());
  if (name == "flatten" && n == 1) return Flatten(list, 1);
  if (name == "flatten" && n == 2 && args[1].Is<int64_t>())
    return Flatten(list, args[1].As<int64_t>());
  if (n != 1) return NoOverload(call, args);
  if (name == "sort") return Sort(list);
  if (name == "distinct") return Distinct(list);
  if (name == "reverse") return Wrap(ValueList(list.rbegin(), list.rend()));
  return NoOverload(call, args);
}

Value ListsExtension::Slice(const ValueList& list, int64_t start, int64_t end) {
  std::string range = "cannot slice(" + std::to_string(start) + ", " + std::to_string(end) + "), ";
  if (start < 0 || end < 0) return Value::Error(range + "negative indexes not supported");
  if (start > end)
    return Value::Error(range + "start index must be less than or equal to end index");
  if (end > static_cast<int64_t>(list.size()))
    return Value::Error(range + "list is length " + std::to_string(list.size()));
  return Wrap(ValueList(list.begin() + start, list.begin() + end));
}

Value ListsExtension::Flatten(const ValueList& list, int64_t depth) {
  if (depth < 0) return Value::Error("level must be non-negative");
  ValueList out;
  FlattenInto(list, depth, out);
  return Wrap(std::move(out));
}

// Elements must be of one comparable type (cel-go declares sort per type).
Value ListsExtension::Sort(const ValueList& list) {
  for (size_t i = 1; i < list.size(); ++i) {
    Value lt = Operators::Binary(BinaryOp::kLt, list[0], list[i]);
    if (lt.IsError() || list[0].data().index() != list[i].data().index())
      return Value::Error("list elements must have the same type");
  }
  if (!list.empty() && !Operators::Binary(BinaryOp::kLt, list[0], list[0]).Is<bool>())
    return Value::Error("list elements must be comparable");
  ValueList sorted = list;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Value& a, const Value& b) {
    Value lt = Operators::Binary(BinaryOp::kLt, a, b);
    return lt.Is<bool>() && lt.As<bool>();
  });
  return Wrap(std::move(sorted));
}

Value ListsExtension::SortBy(const ValueList& list, const ValueList& keys) {
  Value checked = Sort(keys);
  if (checked.IsError()) return checked;
  std::vector<size_t> order(list.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    Value lt = Operators::Binary(BinaryOp::kLt, keys[a], keys[b]);
    return lt.Is<bool>() && lt.As<bool>();
  });
  ValueList out;
  for (size_t i : order) out.push_back(list[i]);
  return Wrap(std::move(out));
}

Value ListsExtension::Distinct(const ValueList& list) {
  ValueList out;
  for (const Value& item : list) {
    bool seen = std::any_of(out.begin(), out.end(), [&](const Value& other) {
      Value eq = Operators::Equal(item, other);
      return eq.Is<bool>() && eq.As<bool>();
    });
    if (!seen) out.push_back(item);
  }
  return Wrap(std::move(out));
}

Value ListsExtension::Range(int64_t n) {
  if (n < 0)
    return Value::Error("lists.range: size must be non-negative, got " + std::to_string(n));
  if (n > kMaxRange)
    return Value::Error("lists.range: size " + std::to_string(n) + " exceeds maximum allowed (" +
                        std::to_string(kMaxRange) + ")");
  ValueList out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(Value(i));
  return Wrap(std::move(out));
}

}  // namespace dra::cel
