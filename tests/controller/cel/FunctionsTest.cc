// Conversions and global functions of the DRA environment: bool(), dyn(),
// type(), global matches(), and Kubernetes' semver library v1 (the
// normalizing semver(s, true) / isSemver(s, true), enabled since 1.33).
#include "controller/cel/Functions.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(FunctionsTest, BoolDynType) {
  const Case cases[] = {
      {R"(bool("true") && bool("TRUE") && bool("t") && bool("1") && bool(true))", T},
      {R"(bool("false") || bool("F") || bool("0"))", F},
      {R"(bool("yes"))", E, "type conversion error from 'string' to 'bool'"},
      {R"(bool(1))", E, "no matching overload for 'bool'"},
      {R"(dyn(1) == 1 && dyn("a") == "a")", T},
      {R"(type(1) == int && type(1u) == uint && type(1.0) == double)", T},
      {R"(type("a") == string && type(true) == bool && type(null) == null_type)", T},
      {R"(type([]) == list && type({}) == map && type(int) == type)", T},
      {R"(type(1) == string)", F},
      {R"(type(device.attributes["gpu.example.com"].index) == int)", T},
      {R"(type(device.attributes["gpu.example.com"].model) != int)", T},
      {R"(string(type(1)) == "int")", E, "no matching overload for 'string'"},
  };
  for (const Case& c : cases) Check(c);
}

// Go's FormatFloat(d, 'g', -1, 64), as cel-go's string(double).
TEST(FunctionsTest, DoubleToString) {
  const Case cases[] = {
      {R"(string(1.5) == "1.5" && string(100000.0) == "100000")", T},
      {R"(string(1234567.0) == "1.234567e+06" && string(1e21) == "1e+21")", T},
      {R"(string(0.0001) == "0.0001" && string(0.00001) == "1e-05")", T},
      {R"(string(-2.0) == "-2" && string(0.0) == "0")", T},
      {R"("%s".format([1234567.0]) == "1.234567e+06")", T},
  };
  for (const Case& c : cases) Check(c);
}

TEST(FunctionsTest, GlobalMatches) {
  const Case cases[] = {
      {R"(matches("H100", "^H1"))", T},
      {R"(matches(device.attributes["gpu.example.com"].model, "^A"))", F},
      {R"(matches("x", "("))", E, "invalid regex"},
      {R"(matches("x"))", E, "no matching overload for 'matches'"},
  };
  for (const Case& c : cases) Check(c);
}

TEST(FunctionsTest, SemverNormalize) {
  const Case cases[] = {
      {R"(semver("v1.2", true) == semver("1.2.0"))", T},
      {R"(semver("01.02.03", true) == semver("1.2.3"))", T},
      {R"(semver("v1", true).major() == 1)", T},
      {R"(semver("v1.2.3-rc.1", true).isLessThan(semver("1.2.3")))", T},
      {R"(isSemver("v1.0", true))", T},
      {R"(isSemver("v1.0"))", F},
      {R"(isSemver("v1.0", false))", F},
      {R"(isSemver("1.0-rc", true))", F},
      {R"(isSemver("hello", true))", F},
      {R"(semver("1.2.3", false) == semver("1.2.3"))", T},
      {R"(semver("v1", false) == semver("1.0.0"))", E, ""},
      {R"(semver("1.0.0", "yes") == semver("1.0.0"))", E, "no matching overload for 'semver'"},
      {R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("v1.2", true)))",
       T},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
