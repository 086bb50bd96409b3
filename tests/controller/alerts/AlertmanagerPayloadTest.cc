#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "controller/alerts/AlertmanagerPayload.h"

namespace dra::alerts {
namespace {

using nlohmann::json;

// A notification as Alertmanager 0.25 sends it (webhook payload version 4).
json Notification() {
  return json::parse(R"({
    "version": "4", "groupKey": "{}:{alertname=\"GPUXidCritical\"}", "truncatedAlerts": 0,
    "status": "firing", "receiver": "dra-controller",
    "groupLabels": {"alertname": "GPUXidCritical"},
    "commonLabels": {"alertname": "GPUXidCritical"}, "commonAnnotations": {},
    "externalURL": "http://alertmanager:9093",
    "alerts": [{
      "status": "firing",
      "labels": {"alertname": "GPUXidCritical", "UUID": "GPU-5f3c", "Hostname": "node-a",
                 "gpu": "3"},
      "annotations": {"summary": "Xid 79 on GPU 3"},
      "startsAt": "2026-12-05T07:31:10.123456789Z", "endsAt": "0001-01-01T00:00:00Z",
      "generatorURL": "http://prometheus:9090/graph", "fingerprint": "c0ffee"
    }]})");
}

TEST(AlertmanagerPayloadTest, ReadsAVersion4Notification) {
  auto payload = AlertmanagerPayload::Parse(Notification().dump());
  ASSERT_TRUE(payload.ok()) << payload.status().ToString();
  EXPECT_EQ(payload->receiver, "dra-controller");
  ASSERT_EQ(payload->alerts.size(), 1u);
  const Alert& alert = payload->alerts[0];
  EXPECT_TRUE(alert.firing);
  EXPECT_EQ(alert.Label("UUID"), "GPU-5f3c");
  EXPECT_EQ(alert.Label("absent"), "");
  EXPECT_EQ(alert.annotations.at("summary"), "Xid 79 on GPU 3");
  EXPECT_EQ(alert.fingerprint, "c0ffee");
  EXPECT_EQ(alert.EventMillis(), alert.starts_at_ms);
  EXPECT_LT(alert.ends_at_ms, 0);
}

TEST(AlertmanagerPayloadTest, ResolvedAlertsAreOrderedByTheirEnd) {
  json body = Notification();
  body["alerts"][0]["status"] = "resolved";
  body["alerts"][0]["endsAt"] = "2026-12-05T07:41:10Z";
  auto payload = AlertmanagerPayload::Parse(body.dump());
  ASSERT_TRUE(payload.ok());
  EXPECT_FALSE(payload->alerts[0].firing);
  EXPECT_EQ(payload->alerts[0].EventMillis(), payload->alerts[0].ends_at_ms);
  EXPECT_GT(payload->alerts[0].ends_at_ms, payload->alerts[0].starts_at_ms);
}

TEST(AlertmanagerPayloadTest, RefusesMalformedBodiesWithAReason) {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"", "not JSON"},
      {"{", "not JSON"},
      {"[]", "not a JSON object"},
      {R"({"version":"3","alerts":[]})", "version"},
      {R"({"version":4,"alerts":[]})", "version"},
      {R"({"version":"4"})", "no alerts array"},
      {R"({"version":"4","alerts":{}})", "no alerts array"},
      {R"({"version":"4","alerts":[1]})", "not an object"},
      {R"({"version":"4","alerts":[{"status":"pending","labels":{}}]})", "status"},
      {R"({"version":"4","alerts":[{"status":"firing"}]})", "no labels"},
      {R"({"version":"4","alerts":[{"status":"firing","labels":{"a":1}}]})", R"(labels "a")"},
      {R"({"version":"4","alerts":[{"status":"firing","labels":[]}]})", "labels is not"},
      {R"({"version":"4","alerts":[{"status":"firing","labels":{},"annotations":{"s":null}}]})",
       R"(annotations "s")"},
      {R"({"version":"4","alerts":[{"status":"firing","labels":{},"startsAt":"yesterday"}]})",
       "startsAt"},
      {R"({"version":"4","alerts":[{"status":"firing","labels":{},"endsAt":5}]})", "endsAt"},
  };
  for (const auto& [body, why] : cases) {
    auto payload = AlertmanagerPayload::Parse(body);
    ASSERT_FALSE(payload.ok()) << body;
    EXPECT_EQ(payload.status().code(), kube::StatusCode::kInvalidArgument) << body;
    EXPECT_NE(payload.status().message().find(why), std::string::npos)
        << body << " -> " << payload.status().message();
  }
}

TEST(AlertmanagerPayloadTest, RefusesMoreAlertsThanTheCap) {
  json body = Notification();
  json alert = body["alerts"][0];
  body["alerts"] = json::array();
  for (size_t i = 0; i <= AlertmanagerPayload::kMaxAlerts; ++i) body["alerts"].push_back(alert);
  auto payload = AlertmanagerPayload::Parse(body.dump());
  ASSERT_FALSE(payload.ok());
  EXPECT_NE(payload.status().message().find("more than"), std::string::npos);
}

TEST(AlertmanagerPayloadTest, DeepNestingIsAnErrorNotACrash) {
  auto nested = [](size_t depth) {
    return R"({"version":"4","alerts":[{"status":"firing","labels":{},"x":)" +
           std::string(depth, '[') + std::string(depth, ']') + "}]}";
  };
  EXPECT_TRUE(AlertmanagerPayload::Parse(nested(AlertmanagerPayload::kMaxDepth - 3)).ok());
  EXPECT_FALSE(AlertmanagerPayload::Parse(nested(100000)).ok());
  EXPECT_FALSE(AlertmanagerPayload::Parse(std::string(100000, '[')).ok());
}

// Every value of a parsed document costs ~100 bytes of heap: nesting and
// value counts are checked on the text, before a document is built.
TEST(AlertmanagerPayloadTest, RefusesDeepNestingBeforeBuildingADocument) {
  std::string body = R"({"version":"4","alerts":[)" + std::string(4 << 20, '[');
  auto parsed = AlertmanagerPayload::Parse(body);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("nested deeper than"), std::string::npos)
      << parsed.status().ToString();
}

TEST(AlertmanagerPayloadTest, RefusesMoreValuesThanANotificationCanHold) {
  std::string labels;
  for (int i = 0; i < 400000; ++i) labels += R"("l)" + std::to_string(i) + R"(":"",)";
  labels.pop_back();
  std::string body = R"({"version":"4","alerts":[{"status":"firing","labels":{)" + labels + "}}]}";
  auto parsed = AlertmanagerPayload::Parse(body);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("values"), std::string::npos)
      << parsed.status().ToString();
}

TEST(AlertmanagerPayloadTest, BracketsInsideStringsDoNotCountAsNesting) {
  json notification = Notification();
  notification["alerts"][0]["annotations"]["summary"] = std::string(10000, '[') + "\\\"{";
  EXPECT_TRUE(AlertmanagerPayload::Parse(notification.dump()).ok());
}

}  // namespace
}  // namespace dra::alerts
