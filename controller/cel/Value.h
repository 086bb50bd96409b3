#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "controller/cel/Device.h"
#include "controller/cel/Semver.h"
#include "src/api/Quantity.h"

namespace dra::cel {

class Value;
using ValueList = std::vector<Value>;
// CEL map literals; keys are int, uint, bool or string values.
using ValueMap = std::vector<std::pair<Value, Value>>;

struct NullValue {
  bool operator==(const NullValue&) const = default;
};
// A CEL runtime error carried as a value.
struct ErrorValue {
  std::string message;
  std::optional<size_t> offset;  // where in the expression it arose, once known
};
// Views into the evaluated device (the device outlives the evaluation).
struct DeviceRef {
  const Device* device;
};
struct AttributesRef {
  const std::map<std::string, AttributeDomain, std::less<>>* map;
};
struct AttributeDomainRef {
  const AttributeDomain* map;
};
struct CapacityRef {
  const std::map<std::string, CapacityDomain, std::less<>>* map;
};
struct CapacityDomainRef {
  const CapacityDomain* map;
};
// optional(T) of CEL's optional types; no value is optional.none().
struct OptionalValue {
  std::shared_ptr<const Value> value;
};
// A type value: what type() returns and what `int`, `string`, ... name.
struct TypeValue {
  std::string name;
};

// A CEL value. Lists and maps are shared and immutable.
class Value {
 public:
  using Data =
      std::variant<NullValue, bool, int64_t, uint64_t, double, std::string,
                   std::shared_ptr<const ValueList>, std::shared_ptr<const ValueMap>,
                   kube::Quantity, Semver, ErrorValue, DeviceRef, AttributesRef, AttributeDomainRef,
                   CapacityRef, CapacityDomainRef, OptionalValue, TypeValue>;

  Value() = default;
  template <typename T>
  Value(T v) : data_(std::move(v)) {}              // NOLINT: implicit by design
  Value(const char* s) : data_(std::string(s)) {}  // NOLINT

  static Value Error(std::string message) {
    return Value(ErrorValue{std::move(message), std::nullopt});
  }
  static Value FromAttribute(const Attribute& attribute);
  static Value Optional(std::optional<Value> v) {
    if (!v) return Value(OptionalValue{});
    return Value(OptionalValue{std::make_shared<const Value>(std::move(*v))});
  }

  template <typename T>
  bool Is() const {
    return std::holds_alternative<T>(data_);
  }
  template <typename T>
  const T& As() const {
    return std::get<T>(data_);
  }
  template <typename T>
  const T* If() const {
    return std::get_if<T>(&data_);
  }
  bool IsError() const { return Is<ErrorValue>(); }
  const Data& data() const { return data_; }

  // The CEL type name: int, uint, double, string, bool, null_type, list, map, ...
  std::string_view TypeName() const;
  // A short rendering for messages and string().
  std::string DebugString() const;

 private:
  Data data_;
};

}  // namespace dra::cel
