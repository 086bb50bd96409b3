#include <gtest/gtest.h>

#include "controller/translate/PodNodeName.h"

namespace dra::translate {
namespace {

using nlohmann::json;

json Pod(const json& managed_fields, const json& conditions, const std::string& node = "n1") {
  json pod = {{"metadata", {{"name", "p"}}}, {"spec", {{"nodeName", node}}}};
  if (!managed_fields.is_null()) pod["metadata"]["managedFields"] = managed_fields;
  if (!conditions.is_null()) pod["status"]["conditions"] = conditions;
  return pod;
}

const json kScheduled = json::array({{{"type", "PodScheduled"}, {"status", "True"}}});

TEST(PodNodeNameTest, ManagedFieldsDecide) {
  json author = json::array(
      {{{"manager", "kubectl"}, {"fieldsV1", {{"f:spec", {{"f:nodeName", json::object()}}}}}}});
  EXPECT_TRUE(PodNodeName::SetByAuthor(Pod(author, kScheduled)));
  json others = json::array(
      {{{"manager", "kubectl"}, {"fieldsV1", {{"f:spec", {{"f:containers", json::object()}}}}}},
       {{"manager", "kubelet"},
        {"subresource", "status"},
        {"fieldsV1", {{"f:spec", {{"f:nodeName", json::object()}}}}}}});
  EXPECT_FALSE(PodNodeName::SetByAuthor(Pod(others, kScheduled)));
  EXPECT_FALSE(PodNodeName::SetByAuthor(Pod(others, nullptr)));
}

TEST(PodNodeNameTest, WithoutManagedFieldsTheBindingConditionDecides) {
  EXPECT_FALSE(PodNodeName::SetByAuthor(Pod(nullptr, kScheduled)));
  EXPECT_TRUE(PodNodeName::SetByAuthor(Pod(nullptr, nullptr)));
  EXPECT_TRUE(PodNodeName::SetByAuthor(
      Pod(json::array(), json::array({{{"type", "PodScheduled"}, {"status", "False"}}}))));
}

TEST(PodNodeNameTest, NoNodeNameOrMalformedIsNotPinned) {
  EXPECT_FALSE(PodNodeName::SetByAuthor(Pod(nullptr, nullptr, "")));
  EXPECT_FALSE(PodNodeName::SetByAuthor(json::array()));
  EXPECT_FALSE(PodNodeName::SetByAuthor({{"spec", {{"nodeName", 3}}}}));
  EXPECT_TRUE(PodNodeName::SetByAuthor(
      {{"metadata", {{"managedFields", "x"}}}, {"spec", {{"nodeName", "n"}}}, {"status", 1}}));
}

}  // namespace
}  // namespace dra::translate
