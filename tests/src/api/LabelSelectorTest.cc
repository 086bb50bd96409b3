#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "src/api/LabelSelector.h"

namespace kube {
namespace {

using Labels = std::map<std::string, std::string>;
using Operator = LabelSelector::Operator;

LabelSelector S(std::string_view text) {
  auto selector = LabelSelector::Parse(text);
  EXPECT_TRUE(selector.ok()) << selector.status().ToString();
  return selector.ok() ? *selector : LabelSelector();
}

const std::string kName63(63, 'a');
const std::string kPrefix253 = std::string(63, 'p') + "." + std::string(63, 'q') + "." +
                               std::string(63, 'r') + "." + std::string(61, 's');

// ---- Valid string forms and their canonical rendering ----

struct ValidSelector {
  std::string input;
  std::string canonical;
};

void PrintTo(const ValidSelector& c, std::ostream* os) { *os << '"' << c.input << '"'; }

class LabelSelectorValidTest : public ::testing::TestWithParam<ValidSelector> {};

TEST_P(LabelSelectorValidTest, ParsesToCanonicalFormThatRoundTrips) {
  const ValidSelector& c = GetParam();
  auto selector = LabelSelector::Parse(c.input);
  ASSERT_TRUE(selector.ok()) << selector.status().ToString();
  EXPECT_EQ(selector->ToString(), c.canonical);
  EXPECT_EQ(selector->Empty(), c.canonical.empty());
  auto again = LabelSelector::Parse(selector->ToString());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, *selector);
}

INSTANTIATE_TEST_SUITE_P(
    LabelSelectorCases, LabelSelectorValidTest,
    ::testing::Values(
        // Everything.
        ValidSelector{"", ""}, ValidSelector{"   ", ""}, ValidSelector{" \t\r\n", ""},
        // Existence.
        ValidSelector{"x", "x"}, ValidSelector{"!x", "!x"}, ValidSelector{"! x", "!x"},
        ValidSelector{"x,y", "x,y"}, ValidSelector{"x,x", "x,x"},
        // Equality; a missing value is the empty value.
        ValidSelector{"x=a", "x=a"}, ValidSelector{"x==a", "x=a"}, ValidSelector{"x!=a", "x!=a"},
        ValidSelector{"x=", "x="}, ValidSelector{"x==", "x="}, ValidSelector{"x!=", "x!="},
        ValidSelector{"x=,y", "x=,y"}, ValidSelector{"A=B", "A=B"},
        ValidSelector{"a.b-c_d=e.f", "a.b-c_d=e.f"}, ValidSelector{"x=1", "x=1"},
        // Sets: sorted, deduplicated, empty elements are "".
        ValidSelector{"x in (a)", "x in (a)"}, ValidSelector{"x in (b,a)", "x in (a,b)"},
        ValidSelector{"x in (a,a)", "x in (a)"}, ValidSelector{"x in ()", "x in ()"},
        ValidSelector{"x in (,)", "x in ()"}, ValidSelector{"x in (a,,b)", "x in (,a,b)"},
        ValidSelector{"x in (a,)", "x in (,a)"}, ValidSelector{"x notin (b,a)", "x notin (a,b)"},
        ValidSelector{"x in(a)", "x in (a)"}, ValidSelector{"x notin()", "x notin ()"},
        // Keywords are ordinary keys and values outside the operator position.
        ValidSelector{"in in (in)", "in in (in)"}, ValidSelector{"notin", "notin"},
        ValidSelector{"!in", "!in"}, ValidSelector{"x=in", "x=in"},
        ValidSelector{"x in (in,notin)", "x in (in,notin)"},
        ValidSelector{"notin notin (notin)", "notin notin (notin)"},
        // Integer comparisons.
        ValidSelector{"x>5", "x>5"}, ValidSelector{"x<10", "x<10"},
        ValidSelector{"x > 007", "x>007"},
        ValidSelector{"x>9223372036854775807", "x>9223372036854775807"},
        // Whitespace between any tokens.
        ValidSelector{"x  in  ( a , b )", "x in (a,b)"}, ValidSelector{"x\tin\t(a)", "x in (a)"},
        ValidSelector{"x =a , y != b", "x=a,y!=b"}, ValidSelector{"\n x=a \r\n", "x=a"},
        ValidSelector{"x = a", "x=a"},
        // Deterministic order: key, then operator, then values.
        ValidSelector{"z,a,m=1", "a,m=1,z"}, ValidSelector{"x!=b,x=a", "x=a,x!=b"},
        ValidSelector{"b in (x),a notin (y),!c", "a notin (y),b in (x),!c"},
        ValidSelector{"x in (b),x in (a)", "x in (a),x in (b)"},
        // Qualified keys and length limits.
        ValidSelector{"example.com/x=a", "example.com/x=a"},
        ValidSelector{"a-1.b-2.example/My_Name.x", "a-1.b-2.example/My_Name.x"},
        ValidSelector{kName63, kName63}, ValidSelector{"x=" + kName63, "x=" + kName63},
        ValidSelector{kPrefix253 + "/x", kPrefix253 + "/x"}));

// ---- Invalid string forms ----

struct InvalidSelector {
  std::string input;
  std::string message_part;
};

void PrintTo(const InvalidSelector& c, std::ostream* os) { *os << '"' << c.input << '"'; }

class LabelSelectorInvalidTest : public ::testing::TestWithParam<InvalidSelector> {};

TEST_P(LabelSelectorInvalidTest, ReportsParseErrorWithOffset) {
  const InvalidSelector& c = GetParam();
  auto selector = LabelSelector::Parse(c.input);
  ASSERT_FALSE(selector.ok()) << "parsed as " << selector->ToString();
  EXPECT_EQ(selector.status().code(), StatusCode::kParseError);
  EXPECT_NE(selector.status().message().find(c.message_part), std::string::npos)
      << selector.status().message();
  EXPECT_NE(selector.status().message().find("at offset "), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    LabelSelectorCases, LabelSelectorInvalidTest,
    ::testing::Values(
        // Structure.
        InvalidSelector{",", "offset 0: expected a label key, found \",\""},
        InvalidSelector{"x,", "offset 2: expected a label key, found end of string"},
        InvalidSelector{",x", "offset 0"}, InvalidSelector{"x,,y", "offset 2"},
        InvalidSelector{"x=a b", "offset 4: expected ',' or end of string, found \"b\""},
        InvalidSelector{"x=a=b", "offset 3"}, InvalidSelector{"x=a)", "offset 3"},
        InvalidSelector{"(x)", "offset 0"}, InvalidSelector{"x y", "offset 2: expected one of"},
        InvalidSelector{"!x=a", "offset 2: expected ',' or end of string"},
        InvalidSelector{"!", "offset 1: expected a label key"}, InvalidSelector{"!!x", "offset 1"},
        InvalidSelector{"x!", "offset 1"},
        InvalidSelector{"x=!", "offset 2: expected a label value"},
        InvalidSelector{"x===a", "offset 3"}, InvalidSelector{"x!==a", "offset 3"},
        // Sets.
        InvalidSelector{"x in a", "offset 5: expected '('"},
        InvalidSelector{"x in", "offset 4: expected '(', found end of string"},
        InvalidSelector{"x notin", "expected '('"},
        InvalidSelector{"x in (a", "offset 7: expected ',' or ')'"},
        InvalidSelector{"x in (a b)", "offset 8"}, InvalidSelector{"x in ((a))", "offset 6"},
        InvalidSelector{"x in (a))", "offset 8"}, InvalidSelector{"x in (a)b", "offset 8"},
        InvalidSelector{"x in (a,", "offset 8"}, InvalidSelector{"x in (=)", "offset 6"},
        InvalidSelector{"x in (a,-b)", "invalid label value \"-b\""},
        // Integer comparisons.
        InvalidSelector{"x>a", "need an int64 integer"}, InvalidSelector{"x>", "an integer"},
        InvalidSelector{"x<,y", "an integer"},
        InvalidSelector{"x>99999999999999999999", "need an int64 integer"},
        InvalidSelector{"x>-1", "invalid label value"}, InvalidSelector{"x>1.5", "int64"},
        // Keys.
        InvalidSelector{"/x", "prefix part before '/' must not be empty"},
        InvalidSelector{"a/", "name part must not be empty"},
        InvalidSelector{"a/b/c", "at most one '/'"},
        InvalidSelector{"Example.com/x", "lowercase DNS subdomain"},
        InvalidSelector{"a..b/x", "DNS subdomain"}, InvalidSelector{"-a.com/x", "DNS subdomain"},
        InvalidSelector{"a_b.com/x", "DNS subdomain"}, InvalidSelector{"a-.com/x", "DNS subdomain"},
        InvalidSelector{kPrefix253 + "s/x", "DNS subdomain"},
        InvalidSelector{"-x", "start and end with an alphanumeric"},
        InvalidSelector{"x-", "start and end with an alphanumeric"},
        InvalidSelector{"_x", "offset 0: invalid label key \"_x\""},
        InvalidSelector{"x.", "invalid label key"}, InvalidSelector{"x:y", "alphanumeric"},
        InvalidSelector{"a" + kName63, "no more than 63 characters"},
        InvalidSelector{std::string("x\0y", 3), "invalid label key \"x\\x00y\""},
        InvalidSelector{"\xc3\xa9=a", "invalid label key"},
        // Values.
        InvalidSelector{"x=-a", "invalid label value \"-a\""},
        InvalidSelector{"x=a_", "start and end with an alphanumeric"},
        InvalidSelector{"x=\"a\"", "invalid label value"},
        InvalidSelector{"x=a;y=b", "alphanumeric"},
        InvalidSelector{"x=a,y=-b", "offset 6: invalid label value"},
        InvalidSelector{"x=a" + kName63, "no more than 63 characters"}));

// ---- Matching ----

struct MatchCase {
  const char* selector;
  Labels labels;
  bool expected;
};

void PrintTo(const MatchCase& c, std::ostream* os) {
  *os << '"' << c.selector << "\" on {";
  for (const auto& [key, value] : c.labels) *os << key << ':' << value << ' ';
  *os << '}';
}

class LabelSelectorMatchTest : public ::testing::TestWithParam<MatchCase> {};

TEST_P(LabelSelectorMatchTest, MatchesLikeKubernetes) {
  const MatchCase& c = GetParam();
  LabelSelector selector = S(c.selector);
  EXPECT_EQ(selector.Matches(c.labels), c.expected);
  EXPECT_EQ(S(selector.ToString()).Matches(c.labels), c.expected) << "canonical form differs";
}

INSTANTIATE_TEST_SUITE_P(
    LabelSelectorCases, LabelSelectorMatchTest,
    ::testing::Values(
        MatchCase{"", {}, true}, MatchCase{"", {{"a", "b"}}, true},
        MatchCase{"x", {{"x", ""}}, true}, MatchCase{"x", {{"y", "a"}}, false},
        MatchCase{"!x", {}, true}, MatchCase{"!x", {{"x", "a"}}, false},
        MatchCase{"x=a", {{"x", "a"}}, true}, MatchCase{"x=a", {{"x", "b"}}, false},
        MatchCase{"x=a", {}, false}, MatchCase{"x==a", {{"x", "a"}}, true},
        MatchCase{"x=", {{"x", ""}}, true}, MatchCase{"x=", {}, false}, MatchCase{"x!=a", {}, true},
        MatchCase{"x!=a", {{"x", "a"}}, false}, MatchCase{"x!=a", {{"x", "b"}}, true},
        MatchCase{"x in (a,b)", {{"x", "b"}}, true}, MatchCase{"x in (a,b)", {{"x", "c"}}, false},
        MatchCase{"x in (a,b)", {}, false}, MatchCase{"x notin (a,b)", {}, true},
        MatchCase{"x notin (a,b)", {{"x", "a"}}, false},
        MatchCase{"x notin (a,b)", {{"x", "c"}}, true}, MatchCase{"x in ()", {{"x", ""}}, true},
        MatchCase{"x in ()", {{"x", "a"}}, false}, MatchCase{"x in (,a)", {{"x", ""}}, true},
        MatchCase{"x>5", {{"x", "6"}}, true}, MatchCase{"x>5", {{"x", "5"}}, false},
        MatchCase{"x>5", {{"x", "abc"}}, false}, MatchCase{"x>5", {}, false},
        MatchCase{"x>5", {{"x", "+6"}}, true},
        MatchCase{"x>5", {{"x", "99999999999999999999"}}, false},
        MatchCase{"x<5", {{"x", "-7"}}, true}, MatchCase{"x<5", {{"x", "5"}}, false},
        MatchCase{"x<5", {{"x", "+-1"}}, false},
        MatchCase{"x=a,y=b", {{"x", "a"}, {"y", "b"}}, true},
        MatchCase{"x=a,y=b", {{"x", "a"}}, false},
        MatchCase{"x=a,!y", {{"x", "a"}, {"z", "c"}}, true},
        MatchCase{"example.com/gpu in (a100,h100),!example.com/tainted",
                  {{"example.com/gpu", "h100"}},
                  true},
        MatchCase{"X=a", {{"x", "a"}}, false}));

// ---- metav1.LabelSelector JSON ----

TEST(LabelSelectorTest, FromJsonNullAndEmptySelectEverything) {
  for (const char* text : {"null", "{}", R"({"matchLabels": null, "matchExpressions": null})",
                           R"({"matchLabels": {}, "matchExpressions": []})"}) {
    auto selector = LabelSelector::FromJson(nlohmann::json::parse(text));
    ASSERT_TRUE(selector.ok()) << text << ": " << selector.status().ToString();
    EXPECT_TRUE(selector->Empty()) << text;
    EXPECT_TRUE(selector->Matches({{"any", "thing"}})) << text;
  }
}

TEST(LabelSelectorTest, FromJsonConvertsLabelsAndExpressions) {
  auto selector = LabelSelector::FromJson(nlohmann::json::parse(R"({
    "matchLabels": {"app": "web", "tier": ""},
    "matchExpressions": [
      {"key": "zone", "operator": "In", "values": ["b", "a", "b"]},
      {"key": "env", "operator": "NotIn", "values": ["dev"]},
      {"key": "gpu", "operator": "Exists"},
      {"key": "legacy", "operator": "DoesNotExist", "values": []},
      {"key": "example.com/x", "operator": "Exists", "values": null}
    ],
    "unknownField": true
  })"));
  ASSERT_TRUE(selector.ok()) << selector.status().ToString();
  EXPECT_EQ(selector->ToString(),
            "app=web,env notin (dev),example.com/x,gpu,!legacy,tier=,zone in (a,b)");
  EXPECT_EQ(*selector, S(selector->ToString()));
  EXPECT_TRUE(selector->Matches(
      {{"app", "web"}, {"tier", ""}, {"zone", "a"}, {"gpu", "1"}, {"example.com/x", "y"}}));
  EXPECT_FALSE(selector->Matches(
      {{"app", "web"}, {"tier", ""}, {"zone", "c"}, {"gpu", "1"}, {"example.com/x", "y"}}));
}

TEST(LabelSelectorTest, FromJsonEqualsTheStringForm) {
  auto from_json = LabelSelector::FromJson(nlohmann::json::parse(R"({"matchLabels": {"x": "a"},
        "matchExpressions": [{"key": "y", "operator": "In", "values": ["c", "b"]}]})"));
  ASSERT_TRUE(from_json.ok()) << from_json.status().ToString();
  EXPECT_EQ(*from_json, S("y in (b,c), x == a"));
}

struct BadJson {
  const char* name;
  const char* json;
  const char* message_part;
};

void PrintTo(const BadJson& c, std::ostream* os) { *os << c.name; }

class LabelSelectorJsonErrorTest : public ::testing::TestWithParam<BadJson> {};

TEST_P(LabelSelectorJsonErrorTest, ReportsClearError) {
  const BadJson& c = GetParam();
  auto selector = LabelSelector::FromJson(nlohmann::json::parse(c.json));
  ASSERT_FALSE(selector.ok()) << "parsed as " << selector->ToString();
  EXPECT_EQ(selector.status().code(), StatusCode::kParseError);
  EXPECT_NE(selector.status().message().find(c.message_part), std::string::npos)
      << selector.status().message();
}

INSTANTIATE_TEST_SUITE_P(
    LabelSelectorCases, LabelSelectorJsonErrorTest,
    ::testing::Values(
        BadJson{"array", "[]", "must be an object, not array"},
        BadJson{"string", R"("x=a")", "must be an object, not string"},
        BadJson{"unknown operator",
                R"({"matchExpressions": [{"key": "x", "operator": "Foo", "values": ["a"]}]})",
                "matchExpressions[0].operator: \"Foo\" is not a valid label selector operator"},
        BadJson{"lowercase operator", R"({"matchExpressions": [{"key": "x", "operator": "in"}]})",
                "\"in\" is not a valid"},
        BadJson{"string-form operator",
                R"({"matchExpressions": [{"key": "x", "operator": "Gt", "values": ["1"]}]})",
                "\"Gt\" is not a valid"},
        BadJson{"missing operator", R"({"matchExpressions": [{"key": "x"}]})",
                "matchExpressions[0].operator: must be a string"},
        BadJson{"missing key", R"({"matchExpressions": [{"operator": "Exists"}]})",
                "matchExpressions[0].key: must be a string"},
        BadJson{"invalid key", R"({"matchExpressions": [{"key": "-x", "operator": "Exists"}]})",
                "invalid label key \"-x\""},
        BadJson{"In without values", R"({"matchExpressions": [{"key": "x", "operator": "In"}]})",
                "must be non-empty"},
        BadJson{"NotIn with empty values",
                R"({"matchExpressions": [{"key": "x", "operator": "NotIn", "values": []}]})",
                "must be non-empty"},
        BadJson{"Exists with values",
                R"({"matchExpressions": [{"key": "x", "operator": "Exists", "values": ["a"]}]})",
                "must be empty"},
        BadJson{"values not array",
                R"({"matchExpressions": [{"key": "x", "operator": "In", "values": "a"}]})",
                "values: must be an array"},
        BadJson{"value not string",
                R"({"matchExpressions": [{"key": "x", "operator": "In", "values": ["a", 1]}]})",
                "values[1]: must be a string"},
        BadJson{"invalid value",
                R"({"matchExpressions": [{"key": "x", "operator": "In", "values": ["a b"]}]})",
                "invalid label value \"a b\""},
        BadJson{"expressions not array", R"({"matchExpressions": {}})",
                "matchExpressions: must be an array"},
        BadJson{"expression not object",
                R"({"matchExpressions": [{"key": "x", "operator": "Exists"}, "x"]})",
                "matchExpressions[1]: must be an object"},
        BadJson{"labels not object", R"({"matchLabels": ["x"]})", "matchLabels: must be an object"},
        BadJson{"label value not string", R"({"matchLabels": {"x": 1}})",
                "matchLabels[\"x\"]: must be a string"},
        BadJson{"invalid label key", R"({"matchLabels": {"a/b/c": "x"}})", "at most one '/'"},
        BadJson{"invalid label value", R"({"matchLabels": {"x": "-"}})", "invalid label value"}));

TEST(LabelSelectorTest, RequirementsAreExposedSorted) {
  LabelSelector selector = S("b in (y,x),a");
  ASSERT_EQ(selector.requirements().size(), 2u);
  EXPECT_EQ(selector.requirements()[0].key, "a");
  EXPECT_EQ(selector.requirements()[0].op, Operator::kExists);
  EXPECT_EQ(selector.requirements()[1].op, Operator::kIn);
  EXPECT_EQ(selector.requirements()[1].values, (std::vector<std::string>{"x", "y"}));
}

TEST(LabelSelectorTest, DefaultIsEmptyAndMatchesEverything) {
  LabelSelector selector;
  EXPECT_TRUE(selector.Empty());
  EXPECT_EQ(selector.ToString(), "");
  EXPECT_TRUE(selector.Matches({}));
  EXPECT_EQ(selector, S(""));
}

TEST(LabelSelectorTest, HugeInputsFailWithShortMessages) {
  std::string input = "x in (" + std::string(100000, 'a') + ")";
  auto selector = LabelSelector::Parse(input);
  ASSERT_FALSE(selector.ok());
  EXPECT_LT(selector.status().message().size(), 400u);
}

}  // namespace
}  // namespace kube
