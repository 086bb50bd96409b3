#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "controller/api/NodeSelector.h"
#include "controller/api/ResourceSlice.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

NodeSelector Parse(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  return NodeSelector::FromJson(doc);
}

std::string Terms(const std::string& terms) { return R"({"nodeSelectorTerms": [)" + terms + "]}"; }

std::string Expr(const std::string& key, const std::string& op, const std::string& values = "") {
  std::string out = R"({"key": ")" + key + R"(", "operator": ")" + op + "\"";
  if (!values.empty()) out += R"(, "values": [)" + values + "]";
  return out + "}";
}

// One term of matchExpressions.
std::string Labels(const std::string& expressions) {
  return Terms(R"({"matchExpressions": [)" + expressions + "]}");
}

const NodeSelector::Labels kGpuNode = {
    {"gpu", "yes"}, {"zone", "a"}, {"cores", "64"}, {"example.com/rack", "r1"}};

struct Case {
  std::string name;
  std::string selector;
  std::string node = "node-1";
  NodeSelector::Labels labels = kGpuNode;
  bool matches = false;
  std::string error;  // substring of parse_error(); empty: parses
};

// The semantics of k8s.io/component-helpers@v0.37.2 nodeaffinity
// (NewNodeSelector + Match) and apimachinery labels.Requirement.
class NodeSelectorTableTest : public ::testing::TestWithParam<Case> {};

TEST_P(NodeSelectorTableTest, MatchesAsUpstream) {
  const Case& c = GetParam();
  NodeSelector selector = Parse(c.selector);
  EXPECT_EQ(selector.Matches(c.node, c.labels), c.matches) << c.selector;
  if (c.error.empty()) {
    EXPECT_TRUE(selector.ok()) << selector.parse_error();
  } else {
    EXPECT_NE(selector.parse_error().find(c.error), std::string::npos)
        << "error: " << selector.parse_error();
    EXPECT_TRUE(selector.terms().empty());
  }
}

Case Picks(std::string name, std::string selector, NodeSelector::Labels labels = kGpuNode,
           std::string node = "node-1") {
  return {std::move(name), std::move(selector), std::move(node), std::move(labels), true, ""};
}
Case Skips(std::string name, std::string selector, NodeSelector::Labels labels = kGpuNode,
           std::string node = "node-1") {
  return {std::move(name), std::move(selector), std::move(node), std::move(labels), false, ""};
}
Case Refuses(std::string name, std::string selector, std::string error) {
  return {std::move(name), std::move(selector), "node-1", kGpuNode, false, std::move(error)};
}

const Case kCases[] = {
    // Terms: none, empty and null pick nothing; non-empty ones are ORed.
    Skips("NoTerms", Terms("")),
    Skips("NullTerms", R"({"nodeSelectorTerms": null})"),
    Skips("EmptyObject", "{}"),
    Skips("EmptyTerm", Terms("{}")),
    Skips("EmptyListsTerm", Terms(R"({"matchExpressions": [], "matchFields": []})")),
    Skips("NullTerm", Terms("null")),
    Picks("EmptyTermIgnoredNextMatches",
          Terms(R"({}, {"matchExpressions": [)" + Expr("gpu", "Exists") + "]}")),
    Picks("TermsOred",
          Terms(R"({"matchExpressions": [)" + Expr("zone", "In", R"("b")") +
                R"(]}, {"matchExpressions": [)" + Expr("zone", "In", R"("a")") + "]}")),
    Skips("ExpressionsAnded",
          Labels(Expr("zone", "In", R"("a")") + "," + Expr("gpu", "In", R"("no")"))),
    // Operators on labels.
    Picks("InMatches", Labels(Expr("gpu", "In", R"("no","yes")"))),
    Skips("InOtherValue", Labels(Expr("gpu", "In", R"("no")"))),
    Skips("InAbsent", Labels(Expr("gpu", "In", R"("yes")")), NodeSelector::Labels{}, "node-1"),
    Picks("InPrefixedKey", Labels(Expr("example.com/rack", "In", R"("r1")"))),
    Picks("NotInOtherValue", Labels(Expr("gpu", "NotIn", R"("no")"))),
    Skips("NotInValue", Labels(Expr("gpu", "NotIn", R"("yes")"))),
    Picks("NotInAbsent", Labels(Expr("gpu", "NotIn", R"("yes")")), NodeSelector::Labels{},
          "node-1"),
    Picks("Exists", Labels(Expr("gpu", "Exists"))),
    Skips("ExistsAbsent", Labels(Expr("gpu", "Exists")), NodeSelector::Labels{}, "node-1"),
    Skips("DoesNotExist", Labels(Expr("gpu", "DoesNotExist"))),
    Picks("DoesNotExistAbsent", Labels(Expr("gpu", "DoesNotExist")), NodeSelector::Labels{},
          "node-1"),
    Picks("GtLarger", Labels(Expr("cores", "Gt", R"("32")"))),
    Skips("GtEqual", Labels(Expr("cores", "Gt", R"("64")"))),
    Picks("GtZero", Labels(Expr("cores", "Gt", R"("0")"))),
    Picks("LtSmaller", Labels(Expr("cores", "Lt", R"("65")"))),
    Skips("LtLarger", Labels(Expr("cores", "Lt", R"("8")"))),
    Skips("GtLabelNotInteger", Labels(Expr("zone", "Gt", R"("1")"))),
    Skips("GtAbsent", Labels(Expr("cores", "Gt", R"("1")")), NodeSelector::Labels{}, "node-1"),
    // matchFields: metadata.name only, In / NotIn with one value.
    Picks("FieldNameIn",
          Terms(R"({"matchFields": [)" + Expr("metadata.name", "In", R"("node-1")") + "]}")),
    Skips("FieldNameInOther",
          Terms(R"({"matchFields": [)" + Expr("metadata.name", "In", R"("node-2")") + "]}")),
    Picks("FieldNameNotIn",
          Terms(R"({"matchFields": [)" + Expr("metadata.name", "NotIn", R"("node-2")") + "]}")),
    Skips("FieldUnknownKeyIn",
          Terms(R"({"matchFields": [)" + Expr("metadata.uid", "In", R"("x")") + "]}")),
    Picks("FieldUnknownKeyNotIn",
          Terms(R"({"matchFields": [)" + Expr("metadata.uid", "NotIn", R"("x")") + "]}")),
    Picks("FieldsIgnoredForNamelessNode",
          Terms(R"({"matchFields": [)" + Expr("metadata.name", "In", R"("node-2")") + "]}"),
          kGpuNode, ""),
    Skips("FieldsAndLabelsAnded",
          Terms(R"({"matchFields": [)" + Expr("metadata.name", "In", R"("node-1")") +
                R"(], "matchExpressions": [)" + Expr("gpu", "In", R"("no")") + "]}")),
    // Parse errors: the selector picks no node, even where a term would.
    Refuses("UnknownOperator",
            Terms(R"({"matchExpressions": [)" + Expr("gpu", "Exists") +
                  R"(]}, {"matchExpressions": [)" + Expr("gpu", "Equals", R"("yes")") + "]}"),
            "nodeSelectorTerms[1].matchExpressions[0].operator: unsupported value \"Equals\""),
    Refuses("InWithoutValues", Labels(Expr("gpu", "In")),
            "must be non-empty for the In and NotIn operators"),
    Refuses("ExistsWithValues", Labels(Expr("gpu", "Exists", R"("yes")")),
            "must be empty for the Exists and DoesNotExist operators"),
    Refuses("GtTwoValues", Labels(Expr("cores", "Gt", R"("1","2")")), "exactly one int64"),
    // labels.NewRequirement checks values as label values first, so a
    // negative bound is refused although it parses as an integer.
    Refuses("GtNegative", Labels(Expr("cores", "Gt", R"("-1")")), "invalid label value \"-1\""),
    Refuses("GtNotInteger", Labels(Expr("cores", "Gt", R"("1.5")")), "int64"),
    Refuses("InvalidKey", Labels(Expr("-gpu", "Exists")), "invalid label key \"-gpu\""),
    Refuses("EmptyKey", Labels(Expr("", "Exists")), "invalid label key"),
    Refuses("InvalidValue", Labels(Expr("gpu", "In", R"("yes please")")), "invalid label value"),
    Refuses("FieldExists", Terms(R"({"matchFields": [)" + Expr("metadata.name", "Exists") + "]}"),
            "matchFields[0].operator: unsupported value \"Exists\" (In or NotIn)"),
    Refuses("FieldTwoValues",
            Terms(R"({"matchFields": [)" + Expr("metadata.name", "In", R"("a","b")") + "]}"),
            "must have one element"),
    Refuses("TermsNotArray", R"({"nodeSelectorTerms": "gpu"})", "array"),
    Refuses("ValueNotString", Labels(R"({"key": "gpu", "operator": "In", "values": [1]})"),
            "values[0]: must be a string"),
    Refuses("ExpressionNotObject", Labels("7"), "must be an object"),
};

INSTANTIATE_TEST_SUITE_P(Upstream, NodeSelectorTableTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

TEST(NodeSelectorTest, DefaultPicksNoNode) {
  NodeSelector selector;
  EXPECT_TRUE(selector.ok());
  EXPECT_FALSE(selector.Matches("node-1", kGpuNode));
}

TEST(NodeSelectorTest, EqualSelectorsCompareEqual) {
  EXPECT_EQ(Parse(Labels(Expr("gpu", "In", R"("yes","no")"))),
            Parse(Labels(Expr("gpu", "In", R"("no","yes","no")"))));
  EXPECT_NE(Parse(Labels(Expr("gpu", "In", R"("yes")"))), Parse(Labels(Expr("gpu", "Exists"))));
}

TEST(NodeSelectorTest, SlicesAndDevicesKeepTheirParsedSelectors) {
  auto slice = testing::Project<ResourceSlice>(R"({"metadata": {"name": "rack"}, "spec": {
    "driver": "gpu.example.com", "pool": {"name": "rack", "resourceSliceCount": 1},
    "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
      {"key": "gpu", "operator": "In", "values": ["yes"]}]}]},
    "devices": [{"name": "gpu-0"}]}})");
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  EXPECT_EQ(slice->node_selection, ResourceSlice::NodeSelection::kNodeSelector);
  ASSERT_NE(slice->node_selector, nullptr);
  EXPECT_TRUE(slice->node_selector->Matches("node-1", kGpuNode));
  EXPECT_EQ(slice->devices[0].node_selector, nullptr);

  auto per_device = testing::Project<ResourceSlice>(R"({"metadata": {"name": "mixed"}, "spec": {
    "driver": "gpu.example.com", "pool": {"name": "mixed", "resourceSliceCount": 1},
    "perDeviceNodeSelection": true,
    "devices": [{"name": "gpu-0", "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
      {"key": "gpu", "operator": "Bogus"}]}]}}]}})");
  ASSERT_TRUE(per_device.ok()) << per_device.status().ToString();
  EXPECT_EQ(per_device->node_selector, nullptr);
  ASSERT_NE(per_device->devices[0].node_selector, nullptr);
  EXPECT_FALSE(per_device->devices[0].node_selector->ok());  // kept, reported, never fatal
}

}  // namespace
}  // namespace dra::api
