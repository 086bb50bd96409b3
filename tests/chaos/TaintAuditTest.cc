#include <gtest/gtest.h>

#include "tests/chaos/TaintAudit.h"

namespace dra::testing {
namespace {

using nlohmann::json;

json Health(const std::string& name, const std::string& state, const std::string& effect) {
  json status = {{"observedGeneration", 1}, {"observedState", state}};
  if (!effect.empty()) {
    status["effect"] = effect;
    status["ruleName"] = "devicehealth-" + name;
  }
  status["conditions"] =
      json::array({{{"type", "Tainted"}, {"status", effect.empty() ? "False" : "True"}}});
  return {{"metadata", {{"name", name}, {"uid", "uid-" + name}, {"generation", 1}}},
          {"spec",
           {{"driver", "gpu.example.com"},
            {"pool", "p"},
            {"device", "gpu-0"},
            {"state", state},
            {"reason", "Xid"}}},
          {"status", status}};
}

json Rule(const std::string& owner, const std::string& effect, const std::string& name = "") {
  return {
      {"metadata",
       {{"name", name.empty() ? "devicehealth-" + owner : name},
        {"labels",
         {{"app.kubernetes.io/managed-by", "dra-controller"},
          {"dra-controller.dev/device-health", owner}}},
        {"ownerReferences", json::array({{{"kind", "DeviceHealth"}, {"uid", "uid-" + owner}}})}}},
      {"spec",
       {{"deviceSelector", {{"driver", "gpu.example.com"}, {"pool", "p"}, {"device", "gpu-0"}}},
        {"taint", {{"key", "k"}, {"value", "Xid"}, {"effect", effect}}}}}};
}

TEST(TaintAuditTest, TheExpectedWorldHasNoProblems) {
  json healths = json::array({Health("a", "Unhealthy", "NoExecute"), Health("b", "Healthy", "")});
  EXPECT_TRUE(TaintAudit::Check(healths, json::array({Rule("a", "NoExecute")})).empty());
}

TEST(TaintAuditTest, FindsLostStaleWrongAndDuplicateTaints) {
  json healths =
      json::array({Health("lost", "Degraded", "NoSchedule"), Health("stale", "Healthy", ""),
                   Health("wrong", "Unhealthy", "NoExecute")});
  json rules = json::array({Rule("stale", "NoSchedule"), Rule("wrong", "NoSchedule"),
                            Rule("wrong", "NoExecute", "another-name"), Rule("gone", "None")});
  auto problems = TaintAudit::Check(healths, rules);
  auto has = [&](const std::string& text) {
    for (const auto& p : problems) {
      if (p.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("lost taint: DeviceHealth lost")) << problems.size();
  EXPECT_TRUE(has("stale taint: DeviceHealth stale"));
  EXPECT_TRUE(has("duplicate DeviceTaintRules for DeviceHealth wrong"));
  EXPECT_TRUE(has("orphaned rule devicehealth-gone"));
}

TEST(TaintAuditTest, StatusMustSayWhatIsInForce) {
  json health = Health("a", "Unhealthy", "NoSchedule");  // status lags the state
  auto problems = TaintAudit::Check(json::array({health}), json::array({Rule("a", "NoExecute")}));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("status of a: effect is 'NoSchedule'"), std::string::npos);
}

}  // namespace
}  // namespace dra::testing
