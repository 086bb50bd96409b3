#pragma once

#include <string_view>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// CEL operators on values. Arguments are never error values; results may be.
class Operators {
 public:
  static Value Binary(BinaryOp op, const Value& lhs, const Value& rhs);
  // a == b: a bool, or an error when the types cannot be compared.
  static Value Equal(const Value& lhs, const Value& rhs);
  static Value Negate(const Value& operand);
  // container[key] / container.key; `found` false means "no such key".
  static Value Index(const Value& container, const Value& key);
  static Value Field(const Value& container, std::string_view name);
  // has(container.key): a bool or an error (never "no such key").
  static Value HasKey(const Value& container, const Value& key);
  // The elements (lists) or keys (maps) a comprehension iterates over.
  static Value Elements(const Value& range, std::vector<Value>& out);

  static Value NoOverload(std::string_view function, const std::vector<const Value*>& args);
  static std::string_view OpName(BinaryOp op);
};

}  // namespace dra::cel
