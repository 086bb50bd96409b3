// cel-go's strings extension (v2, as Kubernetes enables it); expected values
// follow cel-go's ext/strings.go behaviour (code point indexes, Go's
// strings.Replace/SplitN/TrimSpace).
#include "controller/cel/StringsExtension.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(StringsExtensionTest, CharAtIndexOfSubstring) {
  const Case cases[] = {
      {R"("hello".charAt(1) == "e")", T},
      {R"("hello".charAt(5) == "")", T},
      {R"("hello".charAt(6) == "")", E, "index out of range: 6"},
      {R"("héllo".charAt(2) == "l")", T},
      {R"("hello mellow".indexOf("ello") == 1)", T},
      {R"("hello mellow".indexOf("ello", 2) == 7)", T},
      {R"("hello mellow".indexOf("jello") == -1)", T},
      {R"("hello".indexOf("", 3) == 3)", T},
      {R"("hello".indexOf("", 9) == 5)", T},
      {R"("hello".indexOf("l", 9) == -1)", T},
      {R"("hello".indexOf("l", -1) == 0)", E, "index out of range: -1"},
      {R"("héllo".indexOf("l") == 2)", T},
      {R"("hello mellow".lastIndexOf("ello") == 7)", T},
      {R"("hello mellow".lastIndexOf("ello", 6) == 1)", T},
      {R"("hello".lastIndexOf("") == 5)", T},
      {R"("hi".lastIndexOf("hello") == -1)", T},
      {R"("tacocat".substring(4) == "cat")", T},
      {R"("tacocat".substring(0, 4) == "taco")", T},
      {R"("tacocat".substring(7) == "")", T},
      {R"("tacocat".substring(8) == "")", E, "index out of range: 8"},
      {R"("tacocat".substring(4, 2) == "")", E, "invalid substring range"},
      {R"("ñandú".substring(1, 3) == "an")", T},
  };
  for (const Case& c : cases) Check(c);
}

TEST(StringsExtensionTest, ReplaceSplitJoinTrim) {
  const Case cases[] = {
      {R"("hello hello".replace("he", "we") == "wello wello")", T},
      {R"("hello hello".replace("he", "we", 1) == "wello hello")", T},
      {R"("hello hello".replace("he", "we", 0) == "hello hello")", T},
      {R"("ab".replace("", "-") == "-a-b-")", T},
      {R"("a,b,c".split(",") == ["a", "b", "c"])", T},
      {R"("a,b,c".split(",", 2) == ["a", "b,c"])", T},
      {R"("a,b,c".split(",", 0) == [])", T},
      {R"("abc".split("") == ["a", "b", "c"])", T},
      {R"("".split(",") == [""])", T},
      {R"(["a", "b"].join() == "ab")", T},
      {R"(["a", "b"].join("-") == "a-b")", T},
      {R"([].join("-") == "")", T},
      {R"(["a", 1].join("-") == "")", E, "join: invalid input"},
      {"\"  \\t trim\\n \".trim() == \"trim\"", T},
      {"\"\\u00a0x\\u3000\".trim() == \"x\"", T},
      {R"(strings.quote("a\"b") == "\"a\\\"b\"")", T},
      {R"("x".charAt("1") == "")", E, "no matching overload for 'charAt'"},
      {R"(strings.nope("x"))", P, "undeclared reference to 'strings.nope'"},
  };
  for (const Case& c : cases) Check(c);
}

TEST(StringsExtensionTest, OnAttributes) {
  const Case cases[] = {
      {R"(device.attributes["gpu.example.com"].uuid.split("-")[0] == "GPU")", T},
      {R"(device.attributes["gpu.example.com"].model.substring(0, 1) == "H")", T},
      {R"(device.attributes["gpu.example.com"].model.lowerAscii().indexOf("100") == 1)", T},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
