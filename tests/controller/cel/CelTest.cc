// Table-driven tests of the DRA CEL subset: each case is an expression, a
// sample device and the expected outcome (true, false, or an error substring).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controller/cel/Device.h"
#include "controller/cel/Parser.h"
#include "controller/cel/Program.h"
#include "controller/cel/ProgramCache.h"
#include "controller/cel/Regex.h"
#include "controller/cel/Semver.h"

namespace dra::cel {
namespace {

kube::Quantity Q(const char* text) { return *kube::Quantity::Parse(text); }
Semver V(const char* text) { return *Semver::Parse(text); }

Device Gpu(int64_t index, const char* model, const char* memory) {
  Device d;
  d.driver = "gpu.example.com";
  d.attributes["gpu.example.com"] = {{"type", std::string("gpu")},
                                     {"model", std::string(model)},
                                     {"index", index},
                                     {"driverVersion", V("1.2.3")},
                                     {"healthy", true}};
  d.attributes["resource.kubernetes.io"] = {{"pcieRoot", std::string("pci0000:00")}};
  d.capacity["gpu.example.com"] = {{"memory", Q(memory)}, {"cores", Q("500m")}};
  return d;
}

const Device& Small() {
  static const Device d = Gpu(0, "A10", "24Gi");
  return d;
}
const Device& Large() {
  static const Device d = Gpu(7, "H100", "80Gi");
  return d;
}

enum class Want { kTrue, kFalse, kError, kCompileError };
struct Case {
  const char* expression;
  Want want;
  const char* error = "";  // substring of the error message
  const Device* device = nullptr;
};

const std::string kA = R"(device.attributes["gpu.example.com"])";
const std::string kC = R"(device.capacity["gpu.example.com"])";

std::string Expand(std::string s) {
  for (size_t p; (p = s.find("$A")) != std::string::npos;) s.replace(p, 2, kA);
  for (size_t p; (p = s.find("$C")) != std::string::npos;) s.replace(p, 2, kC);
  return s;
}

constexpr Want T = Want::kTrue, F = Want::kFalse, E = Want::kError, P = Want::kCompileError;

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      // Basic device access.
      {R"(device.driver == "gpu.example.com")", T},
      {R"(device.driver != "gpu.example.com")", F},
      {R"(device.driver == 'other')", F},
      {R"($A.type == "gpu")", T},
      {R"($A.model == "A10")", T},
      {R"($A.model == "A10")", F, "", &Large()},
      {R"($A.model == "H100")", T, "", &Large()},
      {R"($A["model"] == "A10")", T},
      {R"($A.index == 0)", T},
      {R"($A.index == 7)", T, "", &Large()},
      {R"($A.index > 3)", F},
      {R"($A.index > 3)", T, "", &Large()},
      {R"($A.index >= 0 && $A.index < 8)", T},
      {R"($A.healthy)", T},
      {R"(!$A.healthy)", F},
      {R"(device.attributes["resource.kubernetes.io"].pcieRoot == "pci0000:00")", T},
      {R"(device.allowMultipleAllocations)", F},
      {R"(!device.allowMultipleAllocations)", T},
      {R"(device["driver"] == "gpu.example.com")", T},
      {R"(device.attributes.size() == 2)", T},
      {R"(size($A) == 5)", T},
      {R"("gpu.example.com" in device.attributes)", T},
      {R"("nvidia.com" in device.attributes)", F},
      {R"("model" in $A)", T},
      {R"("memory" in $C)", T},
      // Missing attributes and domains.
      {R"($A.vendor == "x")", E, "no such key: 'vendor'"},
      // An unknown domain is an empty map (upstream's map with default).
      {R"(device.attributes["nvidia.com"].model == "x")", E, "no such key: 'model'"},
      {R"(device.capacity["nvidia.com"].memory.isInteger())", E, "no such key: 'memory'"},
      {R"(has(device.capacity["nvidia.com"].memory))", F},
      {R"("nvidia.com" in device.capacity)", F},
      {R"($C.bandwidth.isInteger())", E, "no such key: 'bandwidth'"},
      {R"(device.vendor == "x")", P, "undefined field 'vendor'"},  // device is a declared type
      {R"($A.vendor == "x" || true)", T},
      {R"(true || $A.vendor == "x")", T},
      {R"($A.vendor == "x" && false)", F},
      {R"(false && $A.vendor == "x")", F},
      {R"($A.vendor == "x" && true)", E, "no such key"},
      {R"(true && $A.vendor == "x")", E, "no such key"},
      {R"($A.vendor == "x" || false)", E, "no such key"},
      {R"(false || $A.vendor == "x")", E, "no such key"},
      {R"(1 / 0 == 1 || $A.vendor == "x")", E, "division by zero"},
      // has()
      {R"(has($A.model))", T},
      {R"(has($A.vendor))", F},
      // cel-go's has() takes a field selection only; an index is a compile error.
      {R"(has(device.attributes["gpu.example.com"]))", P, "invalid argument to has()"},
      {R"(has(device.attributes["nvidia.com"]))", P, "invalid argument to has()"},
      {R"("gpu.example.com" in device.attributes)", T},
      {R"("nvidia.com" in device.attributes)", F},
      {R"(has(device.attributes["nvidia.com"].model))", F},
      {R"(has($C.memory))", T},
      {R"(has(device.driver))", T},
      {R"(has(device.nothing))", P, "undefined field 'nothing'"},
      {R"(has($A.vendor) && $A.vendor == "x")", F},
      {R"(!has($A.vendor) || $A.vendor == "x")", T},
      {R"(has({"a": 1}.a))", T},
      {R"(has({"a": 1}.b))", F},
      {R"(has(1))", P, "invalid argument to has()"},
      {R"(has("s".x))", E, "no matching overload"},
      // Type errors.
      {R"($A.model < 1)", E, "no matching overload for '<' applied to (string, int)"},
      {R"($A.model == 1)", F},  // heterogeneous equality: attributes are dyn
      {R"($A.index == "0")", F},
      {R"($A.healthy == 1)", F},
      {R"($A.driverVersion == "1.2.3")", F},
      {R"($A.index != "0")", T},
      {R"("a" + 1 == "a1")", E, "no matching overload for '+'"},
      {R"(1 + 1.0 == 2.0)", E, "no matching overload for '+'"},
      {R"(!1)", E, "no matching overload"},
      {R"(-"a" == "a")", E, "no matching overload"},
      {R"(1 ? true : false)", E, "no matching overload"},
      {R"(1 && true)", E, "no matching overload"},
      {R"(true && 1)", E, "no matching overload"},
      {R"(1 || false)", E, "no matching overload"},
      {R"(1 && false)", F},
      {R"($A.model)", E, "must evaluate to bool"},
      {R"(1)", E, "must evaluate to bool, got int"},
      {R"(null)", E, "must evaluate to bool"},
      // Numbers.
      {R"(1 == 1u)", T},
      {R"(1 == 1.0)", T},
      {R"(-1 < 1u)", T},
      {R"(2u > 1)", T},
      {R"(1.5 > 1)", T},
      {R"(18446744073709551615u > 9223372036854775807)", T},
      {R"(0.0 / 0.0 == 0.0 / 0.0)", F},
      {R"(1 + 2 * 3 == 7)", T},
      {R"((1 + 2) * 3 == 9)", T},
      {R"(7 / 2 == 3)", T},
      {R"(-7 / 2 == -3)", T},
      {R"(-7 % 3 == -1)", T},
      {R"(7u % 3u == 1u)", T},
      {R"(1 / 0 == 0)", E, "division by zero"},
      {R"(1 % 0 == 0)", E, "modulus by zero"},
      {R"(1u / 0u == 0u)", E, "division by zero"},
      {R"(9223372036854775807 + 1 > 0)", E, "overflow"},
      {R"(-9223372036854775808 - 1 < 0)", E, "overflow"},
      {R"(-9223372036854775808 == -9223372036854775807 - 1)", T},
      {R"(-(-9223372036854775808) > 0)", E, "overflow"},
      {R"(-9223372036854775808 / -1 < 0)", E, "overflow"},
      {R"(4611686018427387904 * 2 > 0)", E, "overflow"},
      {R"(0u - 1u > 0u)", E, "overflow"},
      {R"(9223372036854775808 > 0)", P, "out of range"},
      {R"(0x10 == 16)", T},
      {R"(0xFFu == 255u)", T},
      {R"(1.5e3 == 1500.0)", T},
      {R"(2.5 * 2.0 == 5.0)", T},
      {R"(1.0 / 0.0 > 1e308)", T},
      {R"(--1 == 1)", T},
      {R"(-$A.index == 0)", T},
      {R"(-$A.index == -7)", T, "", &Large()},
      // Conversions.
      {R"(int("42") == 42)", T},
      {R"(int("x") == 0)", E, "cannot convert"},
      {R"(int(3.9) == 3)", T},
      {R"(int(-3.9) == -3)", T},
      {R"(int(1e19) == 0)", E, "range"},
      {R"(int(18446744073709551615u) == 0)", E, "range"},
      {R"(uint(-1) == 0u)", E, "range"},
      {R"(uint(5) == 5u)", T},
      {R"(double(1) == 1.0)", T},
      {R"(double("2.5") == 2.5)", T},
      {R"(string(7) == "7")", T},
      {R"(string(true) == "true")", T},
      {R"(string($A.index) == "0")", T},
      {R"(string(1.5) == "1.5")", T},
      // Precedence and associativity.
      {R"(true || false && false)", T},
      {R"((true || false) && false)", F},
      {R"(false && false || true)", T},
      {R"(!true == false)", T},
      {R"(!(true == false))", T},
      {R"(true ? false : true ? false : true)", F},
      {R"(false ? false : true ? true : false)", T},
      {R"(false ? true : false ? true : false)", F},
      {R"(1 < 2 == true)", T},
      {R"(1 + 2 == 3 && 2 * 2 == 4)", T},
      {R"(1 - 2 - 3 == -4)", T},
      {R"(8 / 2 / 2 == 2)", T},
      {R"(true ? 1 / 0 == 0 : true)", E, "division by zero"},
      {R"(false ? 1 / 0 == 0 : true)", T},
      // Strings.
      {R"("a\tb" == 'a\x09b')", T},
      {R"("\u00e9" == "é")", T},
      {R"("\U0001F600".size() == 1)", T},
      {R"("\101" == "A")", T},
      {R"("\"q\"" == '"q"')", T},
      {R"('it\'s' == "it's")", T},
      {R"(r"a\n" == "a\\n")", T},
      {R"(r'\d+' == "\\d+")", T},
      {R"("""multi
line""" == "multi\nline")",
       T},
      {R"('''a'b''' == "a'b")", T},
      {R"("é".size() == 1)", T},
      {R"(size("abc") == 3)", T},
      {R"("ab" + "cd" == "abcd")", T},
      {R"("abc" < "abd")", T},
      {R"("\q" == "q")", P, "invalid escape"},
      {R"("unterminated)", P, "unterminated string"},
      {"\"new\nline\" == \"\"", P, "newline"},
      {R"($A.model.startsWith("A"))", T},
      {R"($A.model.startsWith("H"))", F},
      {R"($A.model.endsWith("10"))", T},
      {R"($A.model.contains("1"))", T},
      {R"($A.model.lowerAscii() == "a10")", T},
      {R"("MiXeD".upperAscii() == "MIXED")", T},
      {R"($A.model.startsWith(1))", E, "no matching overload for 'startsWith'"},
      {R"($A.index.startsWith("1"))", E, "no matching overload"},
      // Regular expressions.
      {R"($A.model.matches("^A[0-9]+$"))", T},
      {R"($A.model.matches("^H"))", F},
      {R"($A.model.matches("^H"))", T, "", &Large()},
      {R"(device.driver.matches("example"))", T},
      {R"(device.attributes["resource.kubernetes.io"].pcieRoot.matches(r"^pci\d{4}:\d{2}$"))", T},
      {R"($A.model.matches("(["))", E, "invalid regex"},
      {R"($A.model.matches("A" + "1"))", T},
      {R"($A.model.matches("[" + ""))", E, "invalid regex"},
      {R"($A.model.matches("(["))", E, "invalid regex '([': missing ]: [ at 1:"},
      // RE2 syntax, as Kubernetes' CEL: partial match, UTF-8, no backtracking features.
      {R"("x42y".matches(r"\d+"))", T},
      {R"("xy".matches(r"\d"))", F},
      {R"("abc".matches("b"))", T},
      {R"("abc".matches("^b"))", F},
      {R"("abc".matches("b$"))", F},
      {R"("abc".matches("^abc$"))", T},
      {R"("a\nb".matches("^b"))", F},
      {R"("a\nb".matches("(?m)^b$"))", T},
      {R"("a1_".matches(r"^\w+$") && !"a-".matches(r"^\w+$"))", T},
      {R"("gpu-7".matches("^[a-z]+-[0-9]$") && !"gpu-7".matches("[^a-z0-9-]"))", T},
      {R"("Ab".matches("^[[:upper:]][[:lower:]]$"))", T},
      {R"("ABC".matches("(?i)^abc$"))", T},
      {R"("é".matches("^.$") && "é".matches(r"^\pL$"))", T},
      {R"("aa".matches(r"(a)\1"))", E,
       R"(invalid regex '(a)\1': invalid escape sequence: \1 (RE2)"},
      {R"("aa".matches(r"(a)\1"))", E, "backreferences and lookaround are not supported) at 1:"},
      {R"re("aa".matches("(a)" + r"\1"))re", E, "backreferences"},
      {R"re("ab".matches("a(?=b)"))re", E, "invalid perl operator: (?="},
      {R"re("ab".matches("a(?!c)"))re", E, "lookaround"},
      {R"("a".matches(r"a\Z"))", E, "invalid escape sequence"},
      {R"("a".matches("a{1001}"))", E, "invalid repetition size"},
      {R"("a".matches(r"\pL{100}"))", E, "pattern too large"},
      // Quantities.
      {R"($C.memory.compareTo(quantity("24Gi")) == 0)", T},
      {R"($C.memory.compareTo(quantity("40Gi")) >= 0)", F},
      {R"($C.memory.compareTo(quantity("40Gi")) >= 0)", T, "", &Large()},
      {R"($C.memory.isGreaterThan(quantity("16Gi")))", T},
      {R"($C.memory.isLessThan(quantity("16Gi")))", F},
      {R"($C.memory == quantity("24Gi"))", T},
      {R"($C.memory == quantity("25769803776"))", T},
      {R"($C.memory.asInteger() == 25769803776)", T},
      {R"($C.cores.asInteger() == 0)", E, "cannot convert value to integer"},
      {R"($C.cores.isInteger())", F},
      {R"($C.memory.isInteger())", T},
      {R"($C.cores.asApproximateFloat() == 0.5)", T},
      {R"($C.cores.add(quantity("500m")) == quantity("1"))", T},
      {R"($C.cores.add(1) == quantity("1500m"))", T},
      {R"($C.memory.sub(quantity("8Gi")) == quantity("16Gi"))", T},
      {R"(quantity("4Ei").add(quantity("4Ei")).isInteger())", E, "overflow"},
      {R"(quantity("1.5x") == quantity("1"))", E, "invalid quantity"},
      {R"(isQuantity("1Gi") && !isQuantity("Gi"))", T},
      {R"(quantity("1k").compareTo(quantity("1000")) == 0)", T},
      {R"(quantity("1Ki").isGreaterThan(quantity("1k")))", T},
      {R"($C.memory.compareTo(1) == 0)", E, "no matching overload for 'compareTo'"},
      {R"($C.memory > quantity("1"))", E, "no matching overload for '>'"},
      // Semantic versions.
      {R"($A.driverVersion.isGreaterThan(semver("1.2.0")))", T},
      {R"($A.driverVersion.isLessThan(semver("1.10.0")))", T},
      {R"($A.driverVersion.compareTo(semver("1.2.3")) == 0)", T},
      {R"($A.driverVersion == semver("1.2.3"))", T},
      {R"($A.driverVersion.major() == 1 && $A.driverVersion.minor() == 2)", T},
      {R"($A.driverVersion.patch() == 3)", T},
      {R"(semver("1.0.0-alpha").isLessThan(semver("1.0.0")))", T},
      {R"(semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta")))", T},
      {R"(semver("1.0.0-2").isLessThan(semver("1.0.0-10")))", T},
      {R"(semver("1.0.0+build1") == semver("1.0.0+build2"))", T},
      {R"(semver("v1.0.0") == semver("1.0.0"))", E, "invalid semver"},
      {R"(semver("1.0") == semver("1.0.0"))", E, "invalid semver"},
      {R"(semver("01.0.0") == semver("1.0.0"))", E, "invalid semver"},
      {R"(isSemver("1.2.3-rc.1+meta") && !isSemver("1.2"))", T},
      {R"($A.driverVersion.isGreaterThan("1.0.0"))", E, "no matching overload"},
      // Lists, maps, in.
      {R"($A.model in ["A10", "A100"])", T},
      {R"($A.model in ["H100"])", F},
      {R"($A.index in [0, 1, 2])", T},
      {R"(1 in [1.0])", T},
      {R"("a" in [1, "a"])", T},
      {R"([1, 2] + [3] == [1, 2, 3])", T},
      {R"([1, 2][1] == 2)", T},
      {R"([1, 2][2] == 2)", E, "index out of range"},
      {R"([1, 2,].size() == 2)", T},
      {R"(size([]) == 0)", T},
      {R"({"a": 1, "b": 2}["b"] == 2)", T},
      {R"({"a": 1}.a == 1)", T},
      {R"({"a": 1}["z"] == 1)", E, "no such key: 'z'"},
      {R"("a" in {"a": 1})", T},
      {R"({1: "x"}[1] == "x")", T},
      {R"({"a": 1, "a": 2}.a == 1)", E, "duplicate map key"},
      {R"({"a": 1} == {"a": 1})", T},
      {R"([1, "a"] == [1, "a"])", T},
      // Macros.
      {R"([1, 2, 3].all(x, x > 0))", T},
      {R"([1, 2, 3].all(x, x > 1))", F},
      {R"([1, 2, 3].exists(x, x == 2))", T},
      {R"([1, 2, 3].exists_one(x, x > 1))", F},
      {R"([1, 2, 3].exists_one(x, x > 2))", T},
      {R"([1, 2, 3].filter(x, x % 2 == 1) == [1, 3])", T},
      {R"([1, 2, 3].map(x, x * 2) == [2, 4, 6])", T},
      {R"([1, 2, 3].map(x, x > 1, x * 10) == [20, 30])", T},
      {R"([0, 1].exists(x, 1 / x == 1))", T},
      {R"([1, 0].all(x, 1 / x == 1))", E, "division by zero"},
      {R"([0, 2].all(x, 4 / x == 1))", F},
      {R"(device.attributes.exists(d, d == "resource.kubernetes.io"))", T},
      {R"($A.all(k, k.size() > 0))", T},
      {R"([[1], [2]].all(x, x.all(y, y > 0)))", T},
      {R"([1].all(x, y > 0))", P, "undeclared reference to 'y'"},
      // Parse errors.
      {R"(device.driver ==)", P, "1:17"},
      {R"(device.driver == "a" &&)", P, "unexpected end"},
      {R"((device.driver == "a")", P, "expected ')'"},
      {R"(device.driver = "a")", P, "1:15"},
      {R"(foo == 1)", P, "undeclared reference to 'foo'"},
      {R"(device.driver.frobnicate())", P, "undeclared reference to 'frobnicate'"},
      {R"(1 +)", P, "1:4"},
      {"true &&\n  @", P, "2:3"},
      {R"(device.)", P, "expected a field name"},
      {R"(b"bytes" == b"bytes")", P, "bytes"},
      {R"(if == 1)", P, "reserved"},
      {R"(1..2)", P, ""},
      {R"()", P, "unexpected end"},
      // Runtime errors say where they arose.
      {"device.driver == \"gpu.example.com\" &&\n  device.attributes[\"gpu.example.com\"].vendor "
       "== 1",
       E, "no such key: 'vendor' at 2:"},
      {R"(device.driver == "gpu.example.com" && 1 / 0 == 1)", E, "division by zero at 1:"},
      // Comments and whitespace.
      {"device.driver == \"gpu.example.com\" // trailing comment", T},
      {"\tdevice.driver\n==\r\n\"gpu.example.com\"", T},
  };
  return cases;
}

class CelCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(CelCaseTest, Evaluates) {
  const Case& c = GetParam();
  std::string expression = Expand(c.expression);
  auto program = Program::Compile(expression);
  if (c.want == Want::kCompileError) {
    ASSERT_FALSE(program.ok()) << expression;
    EXPECT_NE(program.status().message().find(c.error), std::string::npos)
        << expression << " -> " << program.status().message();
    return;
  }
  ASSERT_TRUE(program.ok()) << expression << " -> " << program.status().message();
  auto result = (*program)->Evaluate(c.device ? *c.device : Small());
  if (c.want == Want::kError) {
    ASSERT_FALSE(result.ok()) << expression << " -> " << (result.ok() && *result);
    EXPECT_NE(result.status().message().find(c.error), std::string::npos)
        << expression << " -> " << result.status().message();
    return;
  }
  ASSERT_TRUE(result.ok()) << expression << " -> " << result.status().message();
  EXPECT_EQ(*result, c.want == Want::kTrue) << expression;
}

INSTANTIATE_TEST_SUITE_P(CelTable, CelCaseTest, ::testing::ValuesIn(Cases()));

TEST(CelLimitsTest, DeepNestingIsAnError) {
  std::string deep = std::string(5000, '(') + "true" + std::string(5000, ')');
  auto program = Program::Compile(deep);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("nested"), std::string::npos);
  std::string negations = std::string(3000, '!') + "true";
  EXPECT_FALSE(Program::Compile(negations).ok());
  std::string sum = "1";
  for (int i = 0; i < 2000; ++i) sum += " + 1";
  EXPECT_FALSE(Program::Compile(sum + " > 0").ok());
}

TEST(CelLimitsTest, LongOrChainsStayShallow) {
  std::string chain = "false";
  for (int i = 0; i < 300; ++i) chain += " || device.driver == \"d" + std::to_string(i) + "\"";
  auto program = Program::Compile(chain);
  ASSERT_TRUE(program.ok()) << program.status().message();
  auto result = (*program)->Evaluate(Small());
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(*result);
}

// '^(a|aa)*$' against "aa...ab" backtracks exponentially: with std::regex the
// 41-byte case took 31 s and the 64-byte one (DRA's attribute limit) did not
// finish in 150 s. RE2 is linear in the input: all of these take about 0 ms.
class CelRegexPathologicalTest : public ::testing::TestWithParam<size_t> {};

// "true", "false" or the compile or evaluation error.
std::string MatchAttribute(const std::string& expression, std::string model) {
  Device device;
  device.attributes["gpu.example.com"] = {{"model", std::move(model)}};
  auto program = Program::Compile(Expand(expression));
  if (!program.ok()) return program.status().message();
  auto result = (*program)->Evaluate(device);
  if (!result.ok()) return result.status().message();
  return *result ? "true" : "false";
}

TEST_P(CelRegexPathologicalTest, LiteralPatternIsLinear) {
  size_t n = GetParam();
  const std::string expression = R"re($A.model.matches("^(a|aa)*$"))re";
  EXPECT_EQ(MatchAttribute(expression, std::string(n - 1, 'a') + "b"), "false");
  EXPECT_EQ(MatchAttribute(expression, std::string(n, 'a')), "true");
}

TEST_P(CelRegexPathologicalTest, ComputedPatternIsLinear) {
  size_t n = GetParam();
  const std::string expression = R"re($A.model.matches("^(a|aa)" + "*$"))re";
  EXPECT_EQ(MatchAttribute(expression, std::string(n - 1, 'a') + "b"), "false");
  EXPECT_EQ(MatchAttribute(expression, std::string(n, 'a')), "true");
}

INSTANTIATE_TEST_SUITE_P(CelLengths, CelRegexPathologicalTest, ::testing::Values(41, 64, 10000));

TEST(CelRegexTest, LiteralPatternCompilesAtParse) {
  auto literal = Parser::Parse(R"("a".matches("^a$"))");
  ASSERT_TRUE(literal.ok()) << literal.status().message();
  EXPECT_NE((*literal)->regex, nullptr);
  EXPECT_TRUE((*literal)->regex_error.empty());
  auto invalid = Parser::Parse(R"("a".matches(r"(a)\1"))");
  ASSERT_TRUE(invalid.ok()) << invalid.status().message();
  EXPECT_EQ((*invalid)->regex, nullptr);
  EXPECT_NE((*invalid)->regex_error.find("backreferences"), std::string::npos);
  auto computed = Parser::Parse(R"("a".matches("^a" + "$"))");
  ASSERT_TRUE(computed.ok()) << computed.status().message();
  EXPECT_EQ((*computed)->regex, nullptr);
}

TEST(CelRegexTest, CompileErrorsAreValues) {
  auto ok = Regex::Compile("^[a-z]{1,63}$");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE((*ok)->PartialMatch("gpu"));
  EXPECT_FALSE((*ok)->PartialMatch("GPU"));
  auto bad = Regex::Compile("(?<=a)b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), kube::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "invalid regex '(?<=a)b': invalid perl operator: (?< (RE2 syntax: backreferences and "
            "lookaround are not supported)");
}

TEST(CelLimitsTest, ExpressionLengthLimit) {
  std::string big = "\"" + std::string(11 * 1024, 'a') + "\" == \"\"";
  auto program = Program::Compile(big);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("limit"), std::string::npos);
}

TEST(CelProgramCacheTest, CachesProgramsAndErrors) {
  ProgramCache cache;
  auto a = cache.Get("device.driver == \"gpu.example.com\"");
  auto b = cache.Get("device.driver == \"gpu.example.com\"");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  auto bad1 = cache.Get("device.driver ==");
  auto bad2 = cache.Get("device.driver ==");
  EXPECT_FALSE(bad1.ok());
  EXPECT_EQ(bad1.status().message(), bad2.status().message());
  EXPECT_EQ(cache.size(), 2u);
}

TEST(CelSemverTest, OrderingAndParsing) {
  EXPECT_LT(V("1.0.0-alpha").Compare(V("1.0.0-alpha.1")), 0);
  EXPECT_LT(V("1.0.0-beta.11").Compare(V("1.0.0-rc.1")), 0);
  EXPECT_LT(V("1.0.0-rc.1").Compare(V("1.0.0")), 0);
  EXPECT_GT(V("2.0.0").Compare(V("1.99.99")), 0);
  EXPECT_EQ(V("1.2.3-rc.1+b.5").ToString(), "1.2.3-rc.1+b.5");
  EXPECT_FALSE(Semver::Parse("1.2.3-").ok());
  EXPECT_FALSE(Semver::Parse("1.2.3-01").ok());
  EXPECT_FALSE(Semver::Parse("1.2.x").ok());
  EXPECT_FALSE(Semver::Parse("").ok());
}

// A rough cost figure: a typical selector over many devices.

}  // namespace
}  // namespace dra::cel
