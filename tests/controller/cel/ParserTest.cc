// Compile-time checks that match cel-go's parser and macros.
#include "controller/cel/Parser.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(ParserTest, HasTakesOnlyAFieldSelection) {
  const Case cases[] = {
      {R"(has(device.attributes["gpu.example.com"]))", P, "invalid argument to has() macro"},
      {R"(has({"a": 1}["a"]))", P, "invalid argument to has() macro"},
      {R"(has(device.attributes["gpu.example.com"].model))", T},
      {R"(has(device.attributes["gpu.example.com"].vendor))", F},
  };
  for (const Case& c : cases) Check(c);
}

TEST(ParserTest, DeviceFieldsAreDeclared) {
  const Case cases[] = {
      {R"(device.nothing == 1)", P, "undefined field 'nothing'"},
      {R"(device.?nothing.hasValue())", P, "undefined field 'nothing'"},
      {R"(has(device.driver) && has(device.allowMultipleAllocations))", T},
      {R"([device.driver].all(device, device.size() > 0))", T},
      {R"([{"nothing": 1}].all(device, has(device.nothing)))", T},
  };
  for (const Case& c : cases) Check(c);
}

TEST(ParserTest, OptionalSyntax) {
  const Case cases[] = {
      {R"({"a": 1}.?a.value() == 1)", T},
      {R"({"a": 1}[?"a"].value() == 1)", T},
      {R"({"a": 1}.?)", P, "expected a field name"},
      {R"({"a": {"b": 2}}.?a.b.value() == 2)", T},
      {R"({"a": {"b": 2}}.?x.b.hasValue())", F},
  };
  for (const Case& c : cases) Check(c);
}

TEST(ParserTest, NamesAndNamespaces) {
  const Case cases[] = {
      // A comprehension variable may shadow a namespace or type name.
      {R"([1].all(sets, sets == 1))", T},
      {R"([1].all(int, int == 1))", T},
      {R"(optional == 1)", P, "undeclared reference to 'optional'"},
      {R"(sets.contains)", P, "undeclared reference to 'sets.contains'"},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
