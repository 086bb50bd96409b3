// CEL optional types (cel.OptionalTypes(), in Kubernetes' base environment
// since 1.28): .?field, [?key], optional.of/none, hasValue, value, orValue.
#include "controller/cel/Optionals.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(OptionalsTest, SelectAndIndex) {
  const Case cases[] = {
      {R"(device.attributes["gpu.example.com"].?model.orValue("") == "H100")", T},
      {R"(device.attributes["gpu.example.com"].?vendor.orValue("none") == "none")", T},
      {R"(device.attributes["gpu.example.com"].?vendor.hasValue())", F},
      {R"(device.attributes["gpu.example.com"].?index.hasValue())", T},
      {R"(device.attributes[?"gpu.example.com"].?model.value() == "H100")", T},
      {R"(device.attributes[?"other.example.com"].?model.orValue("x") == "x")", T},
      {R"(device.capacity["gpu.example.com"].?memory.orValue(quantity("0")).compareTo(quantity("40Gi")) > 0)",
       T},
      {R"({"a": 1}[?"b"].orValue(2) == 2)", T},
      {R"([1, 2][?1].value() == 2)", T},
      {R"([1, 2][?5].hasValue())", F},
      {R"(device.attributes["gpu.example.com"].?vendor.value() == "x")", E,
       "optional.none() dereference"},
  };
  for (const Case& c : cases) Check(c);
}

TEST(OptionalsTest, Constructors) {
  const Case cases[] = {
      {R"(optional.of(1).value() == 1)", T},
      {R"(optional.none().hasValue())", F},
      {R"(optional.none().orValue(3) == 3)", T},
      {R"(optional.ofNonZeroValue("").hasValue())", F},
      {R"(optional.ofNonZeroValue("a").hasValue())", T},
      {R"(optional.none().or(optional.of(2)).value() == 2)", T},
      {R"(optional.of(1) == optional.of(1))", T},
      {R"(optional.of(1) == optional.none())", F},
      {R"(optional.of(2).optMap(x, x * 10).value() == 20)", T},
      {R"(optional.none().optMap(x, x * 10).hasValue())", F},
      {R"(optional.of(2).optFlatMap(x, optional.of(x + 1)).value() == 3)", T},
      {R"(optional.of(2).optFlatMap(x, optional.none()).hasValue())", F},
      {R"(optional.of(2).optFlatMap(x, x) == 2)", E, "no matching overload for 'optFlatMap'"},
      {R"(device.attributes["gpu.example.com"].?index.optMap(i, i + 1).orValue(0) == 4)", T},
      {R"([1, ?optional.none(), ?optional.of(2)] == [1, 2])", T},
      {R"({"a": 1, ?"b": optional.none(), ?"c": optional.of(3)} == {"a": 1, "c": 3})", T},
      {R"([?device.attributes["gpu.example.com"].?vendor].size() == 0)", T},
      {R"([?1] == [1])", E, "no matching overload for 'optional entry'"},
      {R"(1.hasValue())", E, "no matching overload for 'hasValue'"},
      {R"(has(device.attributes.?x))", P, "invalid argument to has()"},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
