// "...".format() of cel-go's strings extension v2 (ext/formatting.go);
// expected strings checked against the v1.37.2 DRA CEL compiler.
#include "controller/cel/StringFormat.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(StringFormatTest, Clauses) {
  const Case cases[] = {
      {R"("%s-%d".format(["gpu", 3]) == "gpu-3")", T},
      {R"("%d%%".format([50u]) == "50%")", T},
      {R"("%.2f".format([1.005]) == "1.00")", T},
      {R"("%f".format([2.5]) == "2.500000")", T},
      // cel-go prints %f and %e with the en_US number printer.
      {R"("%e".format([1234.5]) == "1.234500×10⁰³")", T},
      {R"("%e".format([0.00012345]) == "1.234500×10⁻⁰⁴")", T},
      {R"("%e".format([1e100]) == "1.000000×10¹⁰⁰")", T},
      {R"("%f".format([1234567.0]) == "1,234,567.000000")", T},
      {R"("%.2f".format([-1234.5]) == "-1,234.50")", T},
      {R"("%.3f".format([999.9999]) == "1,000.000")", T},
      {R"("%f".format([-0.5]) == "-0.500000")", T},
      {R"("%f".format(["NaN"]) == "NaN" && "%f".format(["Infinity"]) == "∞")", T},
      {R"("%f".format([double("-Infinity")]) == "-∞")", T},
      {R"("%b %o %x %X".format([5, 8, 255, 255]) == "101 10 ff FF")", T},
      {R"("%x".format(["hi"]) == "6869")", T},
      {R"("%s".format([[1, "a"]]) == "[1, \"a\"]")", T},
      {R"("%s %s".format([true, null]) == "true null")", T},
      {R"("%d".format([1.5]) == "")", E, "decimal clause can only be used on integers"},
      {R"("%f".format([1]) == "")", E, "fixed-point clause"},
      {R"("%s %s".format(["a"]) == "")", E, "index 1 out of range"},
      {R"("%q".format(["a"]) == "")", E, "unrecognized formatting clause"},
      {R"("%".format([]) == "")", E, "unexpected end of string"},
      {R"("%s".format([device.attributes["gpu.example.com"].model]) == "H100")", T},
  };
  for (const Case& c : cases) Check(c);
}

TEST(StringFormatTest, DirectCall) {
  ValueList args{Value("a"), Value(int64_t{-5})};
  Value v = StringFormat::Format("%s=%x", args);
  ASSERT_TRUE(v.Is<std::string>()) << v.DebugString();
  EXPECT_EQ(v.As<std::string>(), "a=-5");
}

}  // namespace
}  // namespace dra::cel
