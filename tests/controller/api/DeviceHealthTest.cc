#include <gtest/gtest.h>

#include "controller/api/DeviceHealth.h"
#include "tests/controller/api/ProjectionTestUtil.h"

namespace dra::api {
namespace {

using testing::Project;

TEST(DeviceHealthTest, ParsesSpecAndStatus) {
  auto health = Project<DeviceHealth>(R"({
    "apiVersion": "dra-controller.dev/v1alpha1", "kind": "DeviceHealth",
    "metadata": { "name": "node-a-gpu-1", "uid": "u1", "generation": 3 },
    "spec": { "driver": "gpu.example.com", "pool": "node-a", "device": "gpu-1",
              "state": "Unhealthy", "reason": "XidError", "message": "xid 79", "effect": "NoSchedule" },
    "status": { "observedGeneration": 2, "observedState": "Degraded",
                "stateSince": "2026-07-24T11:00:00Z", "ruleName": "devicehealth-node-a-gpu-1",
                "effect": "NoSchedule", "matchedDevices": 1, "affectedPodCount": 3,
                "affectedPods": ["ns/a", "ns/b"],
                "conditions": [ { "type": "Tainted", "status": "True", "reason": "Applied",
                                  "message": "m", "lastTransitionTime": "2026-07-24T11:00:01Z" } ] } })");
  ASSERT_TRUE(health.ok()) << health.status().ToString();
  EXPECT_EQ(health->generation, 3);
  EXPECT_EQ(health->driver, "gpu.example.com");
  EXPECT_EQ(health->pool, "node-a");
  EXPECT_EQ(health->device, "gpu-1");
  EXPECT_EQ(health->state, HealthState::kUnhealthy);
  EXPECT_EQ(health->reason, "XidError");
  ASSERT_TRUE(health->effect.has_value());
  EXPECT_EQ(*health->effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(health->status.observed_generation, 2);
  EXPECT_EQ(health->status.observed_state, "Degraded");
  // Whole seconds (written before stateSince carried milliseconds): the end
  // of that second, so no timer runs from before the write.
  EXPECT_EQ(health->status.state_since_ms, 1784890801000);
  EXPECT_EQ(health->status.rule_name, "devicehealth-node-a-gpu-1");
  EXPECT_EQ(health->status.effect, "NoSchedule");
  EXPECT_EQ(health->status.matched_devices, 1);
  EXPECT_EQ(health->status.affected_pod_count, 3);
  EXPECT_EQ(health->status.affected_pods, (std::vector<std::string>{"ns/a", "ns/b"}));
  ASSERT_NE(health->FindCondition("Tainted"), nullptr);
  EXPECT_EQ(health->FindCondition("Tainted")->last_transition_time, "2026-07-24T11:00:01Z");
  EXPECT_EQ(health->FindCondition("DeviceFound"), nullptr);
}

TEST(DeviceHealthTest, WholePoolWithoutStatusAndUnknownState) {
  auto health = Project<DeviceHealth>(R"({ "metadata": { "name": "pool" },
    "spec": { "driver": "d", "pool": "p", "state": "Broken" }, "status": null })");
  ASSERT_TRUE(health.ok()) << health.status().ToString();
  EXPECT_TRUE(health->device.empty());
  EXPECT_FALSE(health->state.has_value());
  EXPECT_EQ(health->state_text, "Broken");
  EXPECT_FALSE(health->effect.has_value());
  EXPECT_TRUE(health->status.conditions.empty());
}

TEST(DeviceHealthTest, WrongTypesReadAsEmptyAndMissingNameFails) {
  auto odd = Project<DeviceHealth>(R"({ "metadata": { "name": "x" },
    "spec": { "driver": 7, "state": ["Healthy"] }, "status": { "affectedPods": [1, "a/b"] } })");
  ASSERT_TRUE(odd.ok());
  EXPECT_TRUE(odd->driver.empty());
  EXPECT_FALSE(odd->state.has_value());
  EXPECT_EQ(odd->status.affected_pods, (std::vector<std::string>{"a/b"}));
  EXPECT_FALSE(Project<DeviceHealth>(R"({ "spec": {} })").ok());
}

// Regression (DeviceHealthFuzz corpus: state-since-year-9999.json): a
// stateSince after 2262 overflowed the reconciler's system_clock time point
// (nanoseconds), undefined behaviour that UBSan reports.
TEST(DeviceHealthTest, StateSinceAfter2100ReadsAsUnset) {
  auto far = Project<DeviceHealth>(R"({"metadata": {"name": "h"},
    "status": {"observedState": "Unhealthy", "stateSince": "9999-12-31T23:59:59Z"}})");
  ASSERT_TRUE(far.ok());
  EXPECT_EQ(far->status.state_since_ms, 0);
  auto near = Project<DeviceHealth>(R"({"metadata": {"name": "h"},
    "status": {"stateSince": "2099-12-31T23:59:58.999Z"}})");
  ASSERT_TRUE(near.ok());
  EXPECT_EQ(near->status.state_since_ms, 4102444798999);
}

TEST(DeviceHealthTest, StateSinceToTheMillisecond) {
  auto exact = Project<DeviceHealth>(R"({"metadata": {"name": "h"},
    "status": {"stateSince": "2026-07-24T11:00:39.930Z"}})");
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->status.state_since_ms, 1784890839930);
  for (const char* bad : {"", "yesterday", "2026-07-24", "1970-01-01T00:00:00.000Z"}) {
    auto odd = Project<DeviceHealth>(std::string(R"({"metadata": {"name": "h"},
      "status": {"stateSince": ")") + bad +
                                     R"("}})");
    ASSERT_TRUE(odd.ok());
    EXPECT_EQ(odd->status.state_since_ms, 0) << bad;
  }
}

TEST(DeviceHealthTest, StateNames) {
  for (auto state : {HealthState::kHealthy, HealthState::kDegraded, HealthState::kUnhealthy,
                     HealthState::kUnknown}) {
    EXPECT_EQ(ParseHealthState(HealthStateName(state)), state);
  }
  EXPECT_FALSE(ParseHealthState("healthy").has_value());
}

}  // namespace
}  // namespace dra::api
