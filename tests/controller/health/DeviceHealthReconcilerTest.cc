#include <gtest/gtest.h>

#include "controller/health/DeviceHealthReconciler.h"
#include "controller/health/TaintRuleBuilder.h"
#include "src/base/FakeClock.h"
#include "src/cache/Store.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::health {
namespace {

using api::TaintEffect;
using namespace std::chrono_literals;
using nlohmann::json;

// `field` of the status condition `type`; "" without it.
std::string ConditionOf(const json& status, const std::string& type, const std::string& field) {
  for (const auto& c : status.value("conditions", json::array())) {
    if (c.value("type", "") == type) return c.value(field, "");
  }
  return "";
}

class DeviceHealthReconcilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<api::Device> gpus;
    for (int i = 0; i < 4; ++i) gpus.push_back(testing::Gpu("gpu-" + std::to_string(i), 80, "m"));
    inventory_.ApplySlice(testing::Slice("node-a-slice", "node-a", gpus));
    inventory_.ApplySlice(testing::Slice("node-b-slice", "node-b", gpus));
    inventory_.ApplyClaim(testing::Claim("ns", "claim-1", {{"node-a", "gpu-1"}}, {"pod-1"}));
  }

  std::unique_ptr<DeviceHealthReconciler> Make(HealthOptions options) {
    return std::make_unique<DeviceHealthReconciler>(
        HealthSources{&healths_, &rules_, &inventory_}, api_,
        [this](const kube::ObjectReference& ref, auto&, auto& reason, auto&) {
          events_.push_back(reason);
          if (ref.kind == "Pod") pod_events_.push_back(ref.name + " " + reason);
        },
        clock_, options, nullptr);
  }

  // Reconciles until nothing more changes (a real watch would requeue).
  kube::ReconcileResult Settle(DeviceHealthReconciler& r, const std::string& key) {
    kube::ReconcileResult result;
    for (int i = 0; i < 5; ++i) result = r.Reconcile(key);
    return result;
  }

  std::shared_ptr<const api::DeviceTaintRule> Rule(const std::string& key) {
    return rules_.Get(TaintRuleBuilder::RuleName(key));
  }

  static HealthOptions Options(std::chrono::seconds preview = 30s,
                               std::chrono::seconds hold_off = 300s) {
    HealthOptions options;
    options.preview = preview;
    options.hold_off = hold_off;
    return options;
  }

  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>(
      kube::Clock::TimePoint{}, std::chrono::system_clock::time_point(1'800'000'000s));
  kube::Store<api::DeviceHealth> healths_;
  kube::Store<api::DeviceTaintRule> rules_;
  inventory::Inventory inventory_;
  std::shared_ptr<FakeHealthApi> api_ = std::make_shared<FakeHealthApi>(healths_, rules_);
  std::vector<std::string> events_;
  std::vector<std::string> pod_events_;  // "<pod> <reason>"
};

TEST_F(DeviceHealthReconcilerTest, DegradedAppliesOneOwnedRuleWithSpecOnly) {
  auto r = Make(Options());
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded"));
  EXPECT_EQ(Settle(*r, "a1").kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(api_->applies, 1);
  const json& body = api_->last_rule;
  EXPECT_EQ(body["metadata"]["name"], "devicehealth-a1");
  EXPECT_EQ(body["metadata"]["ownerReferences"][0]["uid"], "a1-uid");
  EXPECT_EQ(body["metadata"]["ownerReferences"][0]["kind"], "DeviceHealth");
  EXPECT_FALSE(body.contains("status"));
  EXPECT_EQ(body["spec"]["deviceSelector"],
            (json{{"driver", "gpu.example.com"}, {"pool", "node-a"}, {"device", "gpu-1"}}));
  EXPECT_EQ(body["spec"]["taint"]["effect"], "NoSchedule");
  EXPECT_EQ(body["spec"]["taint"]["value"], "XidError");
  json status = api_->Status("a1");
  EXPECT_EQ(status["observedGeneration"], 1);
  EXPECT_EQ(status["ruleName"], "devicehealth-a1");
  EXPECT_EQ(status["effect"], "NoSchedule");
  EXPECT_EQ(status["matchedDevices"], 1);
  EXPECT_EQ(status["affectedPods"], json::array({"ns/pod-1"}));
  EXPECT_EQ(status["conditions"][0]["type"], "Tainted");
  EXPECT_EQ(status["conditions"][0]["status"], "True");
  EXPECT_EQ(status["conditions"][1]["type"], "DeviceFound");
  EXPECT_EQ(status["conditions"][1]["status"], "True");
  // Idempotent: nothing more is written once converged.
  int writes = api_->status_writes;
  (void)r->Reconcile("a1");
  EXPECT_EQ(api_->applies, 1);
  EXPECT_EQ(api_->status_writes, writes);
  EXPECT_EQ(events_, (std::vector<std::string>{"TaintApplied"}));
}

// A real watch brings our own writes back some milliseconds after they were
// made, and the rule's event can queue the key again before the status's
// event has reached the cache: that reconcile must not decide the same
// transition a second time (Event, status patch, rule apply).
// A target by uuid that resolves to nothing must never become a rule: one
// without driver and pool would select every device of the cluster.
TEST_F(DeviceHealthReconcilerTest, AUuidTargetIsTaintedOnlyOnceItResolves) {
  auto r = Make(Options(0s, 0s));
  json health = Health("u1", "", "", "Degraded");
  health["spec"].erase("pool");
  health["spec"].erase("driver");
  health["spec"]["uuid"] = "GPU-1234";
  api_->Put(health);
  Settle(*r, "u1");
  EXPECT_EQ(api_->applies, 0);
  EXPECT_EQ(api_->Status("u1")["resolved"], "not found");
  EXPECT_EQ(ConditionOf(api_->Status("u1"), "Tainted", "reason"), "DeviceNotFound");

  api::Device gpu = testing::Gpu("gpu-7", 80, "m");
  gpu.attributes.emplace_back("uuid", api::AttributeValue(std::string("GPU-1234")));
  inventory_.ApplySlice(testing::Slice("node-c-slice", "node-c", {gpu}));
  Settle(*r, "u1");
  ASSERT_EQ(api_->applies, 1);
  EXPECT_EQ(api_->last_rule["spec"]["deviceSelector"],
            (json{{"driver", "gpu.example.com"}, {"pool", "node-c"}, {"device", "gpu-7"}}));
  EXPECT_EQ(api_->Status("u1")["resolved"], "gpu.example.com/node-c/gpu-7");
}

// Issue 46: an ambiguous target's Tainted condition said "no ResourceSlice
// publishes the device ... taint NoSchedule applied" while no rule existed.
// The conditions agree: no rule, Tainted=False, and the message says why.
TEST_F(DeviceHealthReconcilerTest, AnAmbiguousTargetSaysNoRuleIsWritten) {
  for (const char* node : {"node-c", "node-d"}) {
    api::Device gpu = testing::Gpu("gpu-7", 80, "m");
    gpu.attributes.emplace_back("uuid", api::AttributeValue(std::string("GPU-TWICE")));
    inventory_.ApplySlice(testing::Slice(std::string(node) + "-slice", node, {gpu}));
  }
  auto r = Make(Options(0s, 0s));
  json health = Health("twice", "", "", "Degraded");
  health["spec"].erase("pool");
  health["spec"].erase("driver");
  health["spec"]["uuid"] = "GPU-TWICE";
  api_->Put(health);
  Settle(*r, "twice");
  EXPECT_EQ(api_->applies, 0);
  json status = api_->Status("twice");
  EXPECT_EQ(ConditionOf(status, "Tainted", "status"), "False");
  EXPECT_EQ(ConditionOf(status, "Tainted", "reason"), "DeviceAmbiguous");
  std::string message = ConditionOf(status, "Tainted", "message");
  EXPECT_NE(message.find("2 published devices match uuid GPU-TWICE"), std::string::npos) << message;
  EXPECT_NE(message.find("no DeviceTaintRule is written"), std::string::npos) << message;
  EXPECT_EQ(message.find("applied"), std::string::npos) << message;
  EXPECT_EQ(message.find("no ResourceSlice publishes"), std::string::npos) << message;
  EXPECT_EQ(ConditionOf(status, "Enforced", "status"), "False");
  EXPECT_EQ(status.value("matchedDevices", -1), 0);
}

// Issue 46: DeviceTaintedNoExecute ("the Pod is evicted") went to Pods whose
// claims tolerate the taint. v1.37.2's eviction controller counts only a
// toleration with effect NoExecute; such a Pod stays and gets no Event.
TEST_F(DeviceHealthReconcilerTest, PodsWhoseClaimToleratesNoExecuteGetNoEvictionEvent) {
  auto tolerating = std::make_shared<api::ResourceClaim>(
      *testing::Claim("ns", "claim-2", {{"node-a", "gpu-2"}}, {"pod-2"}));
  api::DeviceToleration toleration;
  toleration.key = kTaintKey;
  toleration.op = api::DeviceToleration::Operator::kExists;
  toleration.effect = TaintEffect::kNoExecute;
  tolerating->results[0].tolerations.push_back(toleration);
  inventory_.ApplyClaim(tolerating);
  HealthOptions options = Options(0s);
  options.storm_share = 1.0;
  auto r = Make(options);
  api_->Put(Health("pool", "node-a", "", "Unhealthy"));
  (void)Settle(*r, "pool");
  ASSERT_EQ(Rule("pool")->taint.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(pod_events_, std::vector<std::string>{"pod-1 DeviceTaintedNoExecute"});
}

// Several workers admit DeviceHealths to NoExecute at once, each before the
// caches show the others' rules: the storm guard counts what this process
// has put in force, so a pool never goes past its cap (here 2 of 4).
TEST_F(DeviceHealthReconcilerTest, StormGuardCountsItsOwnWritesBeforeTheCachesShowThem) {
  HealthOptions options = Options(0s);
  options.storm_share = 0.5;
  auto r = Make(options);
  api_->delay_watch = true;
  for (int i = 0; i < 3; ++i) {
    api_->Put(Health("d" + std::to_string(i), "node-a", "gpu-" + std::to_string(i), "Unhealthy"));
  }
  // In every order a work queue may hand them out, repeatedly: at no point
  // more than two of them have a NoExecute rule written.
  std::map<std::string, std::string> effect;  // rule name -> last effect written
  api_->on_apply = [&](const json& rule) {
    effect[rule["metadata"]["name"]] = rule["spec"]["taint"]["effect"];
    int evicting = 0;
    for (const auto& [name, e] : effect) evicting += e == "NoExecute" ? 1 : 0;
    EXPECT_LE(evicting, 2) << rule.dump();
  };
  for (const auto& order : {std::vector<int>{2, 1, 0}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}}) {
    for (int i : order) (void)r->Reconcile("d" + std::to_string(i));
  }
  int evicting = 0;
  for (const auto& [name, e] : effect) evicting += e == "NoExecute" ? 1 : 0;
  EXPECT_EQ(evicting, 2);
}

// The same when the DeviceHealths arrive one by one and the one that ranks
// first (the same second, the smallest name) comes last: the two already in
// force are not outranked by it, whatever their cached status says.
TEST_F(DeviceHealthReconcilerTest, StormGuardNeverOutranksWhatIsInForce) {
  HealthOptions options = Options(0s);
  options.storm_share = 0.5;
  auto r = Make(options);
  api_->delay_watch = true;
  for (const char* name : {"d1", "d2", "d0"}) {
    std::string device = std::string("gpu-") + name[1];
    api_->Put(Health(name, "node-a", device, "Unhealthy"));
    (void)r->Reconcile(name);
  }
  EXPECT_EQ(api_->last_rule["metadata"]["name"], "devicehealth-d0");
  EXPECT_EQ(api_->last_rule["spec"]["taint"]["effect"], "NoSchedule");
}

TEST_F(DeviceHealthReconcilerTest, CachesBehindOwnWritesMakeNoSecondWrite) {
  auto r = Make(Options(0s, 0s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded"));
  api_->delay_watch = true;
  EXPECT_EQ(r->Reconcile("a1").kind, kube::ReconcileResult::Kind::kDone);
  auto again = r->Reconcile("a1");  // queued by the rule's event; caches unchanged
  EXPECT_EQ(again.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_EQ(again.requeue_after, DeviceHealthReconciler::kOwnWritesPatience);
  EXPECT_EQ(api_->applies, 1);
  EXPECT_EQ(api_->status_writes, 1);
  EXPECT_EQ(events_, (std::vector<std::string>{"TaintApplied"}));
  api_->Deliver();
  EXPECT_EQ(r->Reconcile("a1").kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(api_->applies, 1);
  EXPECT_EQ(api_->status_writes, 1);
  // Healthy again: the rule is deleted once, with one Event.
  api_->Put(Health("a1", "node-a", "gpu-1", "Healthy"));
  (void)r->Reconcile("a1");
  (void)r->Reconcile("a1");
  EXPECT_EQ(api_->deletes, 1);
  EXPECT_EQ(api_->status_writes, 2);
  EXPECT_EQ(events_, (std::vector<std::string>{"TaintApplied", "TaintRemoved"}));
  api_->Deliver();
  EXPECT_EQ(r->Reconcile("a1").kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(api_->status_writes, 2);  // "taint removed" is not rewritten to "no taint"
  EXPECT_EQ(api_->deletes, 1);
}

// A write the server found unchanged makes no watch event: after the
// patience, the reconcile goes ahead on what the caches show.
TEST_F(DeviceHealthReconcilerTest, OwnWritesThatNeverShowUpStopBeingAwaited) {
  auto r = Make(Options(0s, 0s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded"));
  api_->delay_watch = true;
  (void)r->Reconcile("a1");
  clock_->Step(DeviceHealthReconciler::kOwnWritesPatience);
  EXPECT_EQ(r->Reconcile("a1").kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(api_->applies, 2);
}

TEST_F(DeviceHealthReconcilerTest, PreviewThenNoExecuteOnTheFakeClock) {
  auto r = Make(Options(30s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy"));
  auto result = Settle(*r, "a1");
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_EQ(result.requeue_after, 30s);
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(api_->Status("a1")["affectedPods"], json::array({"ns/pod-1"}));
  clock_->Step(29s);
  (void)Settle(*r, "a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  clock_->Step(1s);
  EXPECT_EQ(Settle(*r, "a1").kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(api_->applies, 2);
  // One Event on the DeviceHealth per transition, one on the Pod that goes.
  EXPECT_EQ(events_,
            (std::vector<std::string>{"TaintPreview", "TaintApplied", "DeviceTaintedNoExecute"}));
}

TEST_F(DeviceHealthReconcilerTest, RestartMidPreviewResumesTheTimerFromStatus) {
  auto before = Make(Options(30s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy"));
  (void)Settle(*before, "a1");
  clock_->Step(20s);
  int applies = api_->applies;
  int writes = api_->status_writes;
  auto after = Make(Options(30s));  // a new process: nothing in memory
  auto result = Settle(*after, "a1");
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_EQ(result.requeue_after, 10s);  // not 30 s again
  EXPECT_EQ(api_->applies, applies);
  EXPECT_EQ(api_->status_writes, writes);
  clock_->Step(10s);
  (void)Settle(*after, "a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoExecute);
}

TEST_F(DeviceHealthReconcilerTest, FlappingInsideHoldOffKeepsOneRule) {
  auto r = Make(Options(0s, 300s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy", 1));
  (void)Settle(*r, "a1");
  std::string uid = Rule("a1")->meta.uid.str();
  api_->Put(Health("a1", "node-a", "gpu-1", "Healthy", 2));
  auto held = Settle(*r, "a1");
  EXPECT_EQ(held.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  clock_->Step(100s);
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy", 3));
  (void)Settle(*r, "a1");
  api_->Put(Health("a1", "node-a", "gpu-1", "Healthy", 4));
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->deletes, 0);
  ASSERT_NE(Rule("a1"), nullptr);
  EXPECT_EQ(Rule("a1")->meta.uid, uid);  // never removed and re-created
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoExecute);
  clock_->Step(300s);
  (void)Settle(*r, "a1");
  EXPECT_EQ(Rule("a1"), nullptr);
  EXPECT_EQ(api_->deletes, 1);
  EXPECT_EQ(api_->Status("a1")["conditions"][0]["reason"], "Healthy");
}

TEST_F(DeviceHealthReconcilerTest, DryRunWritesNoRule) {
  HealthOptions options = Options(0s);
  options.dry_run = true;
  auto r = Make(options);
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy"));
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->applies, 0);
  EXPECT_EQ(api_->deletes, 0);
  json status = api_->Status("a1");
  EXPECT_EQ(status["conditions"][0]["status"], "False");
  EXPECT_EQ(status["conditions"][0]["reason"], "DryRun");
  EXPECT_EQ(status["effect"], "NoExecute");
  EXPECT_EQ(status["affectedPodCount"], 1);
  EXPECT_TRUE(status["ruleName"].is_null());
  healths_.Erase("a1");
  (void)r->Reconcile("a1");
  EXPECT_EQ(api_->deletes, 0);
}

// Where the cluster serves no DeviceTaintRule API: reported as a dry run,
// the reason and message naming what to turn on.
TEST_F(DeviceHealthReconcilerTest, NoTaintRuleApiReportsWhatToTurnOn) {
  HealthOptions options = Options(0s);
  options.dry_run = true;
  options.dry_run_reason = "TaintRulesNotServed";
  options.dry_run_message = "turn on the feature gate DRADeviceTaintRules";
  auto r = Make(options);
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy"));
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->applies, 0);
  json status = api_->Status("a1");
  bool enforced_seen = false;
  for (const auto& c : status["conditions"]) {
    if (c["type"] == "Tainted") {
      EXPECT_EQ(c["reason"], "TaintRulesNotServed");
    }
    if (c["type"] != "Enforced") continue;
    enforced_seen = true;
    EXPECT_EQ(c["status"], "False");
    EXPECT_EQ(c["reason"], "TaintRulesNotServed");
    EXPECT_EQ(c["message"], "turn on the feature gate DRADeviceTaintRules");
  }
  EXPECT_TRUE(enforced_seen) << status.dump();
}

// 1.34's v1alpha3 DeviceTaintRule has no effect None: a report-only decision
// (Unknown with nothing in force) writes no rule there, and one elsewhere.
TEST_F(DeviceHealthReconcilerTest, ReportOnlyWritesNoRuleWhereEffectNoneIsNotServed) {
  HealthOptions without_none = Options(0s);
  without_none.none_effect_served = false;
  auto old = Make(without_none);
  api_->Put(Health("a1", "node-a", "gpu-1", "Unknown"));
  (void)Settle(*old, "a1");
  EXPECT_EQ(api_->applies, 0);
  EXPECT_EQ(Rule("a1"), nullptr);
  auto current = Make(Options(0s));
  api_->Put(Health("b1", "node-b", "gpu-1", "Unknown"));
  (void)Settle(*current, "b1");
  EXPECT_EQ(api_->applies, 1);
  EXPECT_EQ(api_->last_rule["spec"]["taint"]["effect"], "None");
}

TEST_F(DeviceHealthReconcilerTest, RestoresAnEditedOrDeletedRule) {
  auto r = Make(Options());
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded"));
  (void)Settle(*r, "a1");
  auto edited = std::make_shared<api::DeviceTaintRule>(*Rule("a1"));
  edited->taint.effect = TaintEffect::kNone;
  rules_.Upsert(edited);
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->applies, 2);
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  rules_.Erase("devicehealth-a1");
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->applies, 3);
  ASSERT_NE(Rule("a1"), nullptr);
}

TEST_F(DeviceHealthReconcilerTest, NeverTouchesAForeignRule) {
  auto r = Make(Options());
  auto foreign = testing::TaintRule("devicehealth-a1", "node-a", "gpu-1", TaintEffect::kNoExecute);
  rules_.Upsert(foreign);
  auto other = testing::TaintRule("ops-rule", "node-a", "gpu-1", TaintEffect::kNoExecute);
  rules_.Upsert(other);
  api_->Put(Health("a1", "node-a", "gpu-1", "Healthy"));
  (void)Settle(*r, "a1");
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded", 2));
  (void)Settle(*r, "a1");
  healths_.Erase("a1");
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->applies, 0);
  EXPECT_EQ(api_->deletes, 0);
  EXPECT_EQ(api_->Status("a1")["conditions"][0]["reason"], "RuleNameTaken");
}

TEST_F(DeviceHealthReconcilerTest, DeletedHealthDeletesItsRuleByUid) {
  auto r = Make(Options());
  api_->Put(Health("a1", "node-a", "", "Degraded"));
  (void)Settle(*r, "a1");
  EXPECT_EQ(api_->Status("a1")["matchedDevices"], 4);  // the whole pool
  EXPECT_FALSE(api_->last_rule["spec"]["deviceSelector"].contains("device"));
  std::string uid = Rule("a1")->meta.uid.str();
  healths_.Erase("a1");
  (void)r->Reconcile("a1");
  EXPECT_EQ(api_->deletes, 1);
  EXPECT_EQ(api_->last_deleted_uid, uid);
}

TEST_F(DeviceHealthReconcilerTest, StormGuardHoldsBackAndPromotesWhenRoomFrees) {
  HealthOptions options = Options(0s);
  options.storm_share = 0.25;  // 4 devices per pool: one may be NoExecute
  auto r = Make(options);
  api_->Put(Health("first", "node-a", "gpu-0", "Unhealthy"));
  (void)Settle(*r, "first");
  clock_->Step(1s);
  api_->Put(Health("second", "node-a", "gpu-1", "Unhealthy"));
  (void)Settle(*r, "second");
  EXPECT_EQ(Rule("first")->taint.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(Rule("second")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(api_->Status("second")["conditions"][0]["reason"], "StormGuard");
  EXPECT_EQ(r->HeldKeys(), (std::vector<std::string>{"second"}));
  // Another pool has its own room, and the driver's 8 devices allow two.
  clock_->Step(1s);
  api_->Put(Health("other", "node-b", "gpu-0", "Unhealthy"));
  (void)Settle(*r, "other");
  EXPECT_EQ(Rule("other")->taint.effect, TaintEffect::kNoExecute);
  // A third pool-b device exceeds both pool b's share and the driver's.
  clock_->Step(1s);
  api_->Put(Health("third", "node-b", "gpu-1", "Unhealthy"));
  (void)Settle(*r, "third");
  EXPECT_EQ(Rule("third")->taint.effect, TaintEffect::kNoSchedule);
  healths_.Erase("first");
  (void)Settle(*r, "first");
  for (const auto& key : r->HeldKeys()) (void)Settle(*r, key);
  // Room in pool a and under the driver share: the oldest waiting one goes.
  EXPECT_EQ(Rule("second")->taint.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(api_->Status("second")["conditions"][0]["reason"], "Applied");
  EXPECT_EQ(Rule("third")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(r->HeldKeys(), (std::vector<std::string>{"third"}));
}

// Issue 46: a device that turns Healthy keeps NoExecute for its hold-off but
// stopped counting against the share, so a held-back device was promoted
// past the cap (here: two of a pool of four, cap one).
TEST_F(DeviceHealthReconcilerTest, StormGuardCountsDevicesHeldUnderNoExecuteInTheirHoldOff) {
  HealthOptions options = Options(0s, 300s);
  options.storm_share = 0.25;  // 4 devices per pool: one may be NoExecute
  auto r = Make(options);
  api_->Put(Health("first", "node-a", "gpu-0", "Unhealthy"));
  (void)Settle(*r, "first");
  ASSERT_EQ(Rule("first")->taint.effect, TaintEffect::kNoExecute);
  clock_->Step(1s);
  api_->Put(Health("first", "node-a", "gpu-0", "Healthy", 2));
  (void)Settle(*r, "first");
  ASSERT_EQ(Rule("first")->taint.effect, TaintEffect::kNoExecute) << "kept for the hold-off";
  clock_->Step(1s);
  api_->Put(Health("second", "node-a", "gpu-1", "Unhealthy"));
  (void)Settle(*r, "second");
  EXPECT_EQ(Rule("second")->taint.effect, TaintEffect::kNoSchedule);
  std::string message = api_->Status("second")["conditions"][0]["message"];
  EXPECT_EQ(api_->Status("second")["conditions"][0]["reason"], "StormGuard") << message;
  // The message names the cap that was hit and the counts behind it.
  EXPECT_NE(message.find("pool gpu.example.com/node-a"), std::string::npos) << message;
  EXPECT_NE(message.find("1 of 4 devices"), std::string::npos) << message;
  EXPECT_NE(message.find("cap 1 (25% of 4 devices)"), std::string::npos) << message;
  // The hold-off ends: the rule goes, and the waiting device takes the room.
  clock_->Step(300s);
  (void)Settle(*r, "first");
  ASSERT_EQ(Rule("first"), nullptr);
  (void)Settle(*r, "second");
  EXPECT_EQ(Rule("second")->taint.effect, TaintEffect::kNoExecute);
}

// A whole-pool DeviceHealth larger than the cap can never be admitted; its
// status says so instead of waiting for room that cannot come.
TEST_F(DeviceHealthReconcilerTest, StormGuardSaysWhenAWholePoolNeverFitsTheCap) {
  HealthOptions options = Options(0s);
  options.storm_share = 0.25;
  auto r = Make(options);
  api_->Put(Health("pool", "node-a", "", "Unhealthy"));
  (void)Settle(*r, "pool");
  EXPECT_EQ(Rule("pool")->taint.effect, TaintEffect::kNoSchedule);
  std::string message = api_->Status("pool")["conditions"][0]["message"];
  EXPECT_NE(message.find("covers 4 devices, more than the cap of 1"), std::string::npos) << message;
  EXPECT_NE(message.find("--health-storm-guard-percent"), std::string::npos) << message;
}

TEST_F(DeviceHealthReconcilerTest, OverrideOutsidePolicyIsRefusedWithAWarning) {
  auto r = Make(Options());
  json object = Health("a1", "node-a", "gpu-1", "Degraded");
  object["spec"]["effect"] = "NoExecute";
  api_->Put(object);
  (void)Settle(*r, "a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  std::string message = api_->Status("a1")["conditions"][0]["message"];
  EXPECT_NE(message.find("not allowed"), std::string::npos) << message;
}

// Issue 38: an unpublished device said Tainted=True/Applied NoExecute. The
// rule stays (it taints the device once published), the status says why
// nothing is tainted.
TEST_F(DeviceHealthReconcilerTest, UnpublishedDeviceIsReported) {
  auto r = Make(Options(0s));
  api_->Put(Health("ghost", "node-z", "gpu-9", "Unhealthy"));
  (void)Settle(*r, "ghost");
  json status = api_->Status("ghost");
  EXPECT_EQ(ConditionOf(status, "DeviceFound", "status"), "False");
  EXPECT_EQ(ConditionOf(status, "DeviceFound", "reason"), "NotPublished");
  EXPECT_EQ(status["matchedDevices"], 0);
  EXPECT_EQ(ConditionOf(status, "Tainted", "status"), "False");
  EXPECT_EQ(ConditionOf(status, "Tainted", "reason"), "DeviceNotFound");
  EXPECT_NE(ConditionOf(status, "Tainted", "message").find("nothing is tainted"),
            std::string::npos);
  EXPECT_EQ(ConditionOf(status, "Enforced", "status"), "False");
  ASSERT_NE(Rule("ghost"), nullptr);
  EXPECT_EQ(Rule("ghost")->taint.effect, TaintEffect::kNoExecute);
}

// Issue 38: Degraded -> Unhealthy rewrote the rule from NoSchedule to None
// for the preview; the scheduler bound a Pending Pod to the GPU at once.
TEST_F(DeviceHealthReconcilerTest, EscalationKeepsNoScheduleThroughThePreview) {
  auto r = Make(Options(30s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded", 1));
  (void)Settle(*r, "a1");
  ASSERT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  int applies = api_->applies;
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy", 2));
  auto result = Settle(*r, "a1");
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(api_->applies, applies);  // never rewritten, not even for a moment
  json status = api_->Status("a1");
  EXPECT_EQ(status["effect"], "NoSchedule");
  EXPECT_EQ(ConditionOf(status, "Tainted", "reason"), "Preview");
  // A new process in the middle of the preview keeps NoSchedule too.
  clock_->Step(15s);
  auto restarted = Make(Options(30s));
  (void)Settle(*restarted, "a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(api_->applies, applies);
  clock_->Step(15s);
  (void)Settle(*restarted, "a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoExecute);
}

// Issue 38: Tainted=True during the preview made `kubectl wait
// --for=condition=Tainted` return before the taint the state asks for was
// in force. Enforced says that.
TEST_F(DeviceHealthReconcilerTest, EnforcedWaitsForTheEffectTheStateAsksFor) {
  auto r = Make(Options(30s, 300s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy", 1));
  (void)Settle(*r, "a1");
  json status = api_->Status("a1");
  EXPECT_EQ(ConditionOf(status, "Enforced", "status"), "False");
  EXPECT_EQ(ConditionOf(status, "Enforced", "reason"), "Preview");
  clock_->Step(30s);
  (void)Settle(*r, "a1");
  status = api_->Status("a1");
  EXPECT_EQ(ConditionOf(status, "Enforced", "status"), "True");
  EXPECT_EQ(ConditionOf(status, "Enforced", "reason"), "Applied");
  api_->Put(Health("a1", "node-a", "gpu-1", "Healthy", 2));
  (void)Settle(*r, "a1");
  EXPECT_EQ(ConditionOf(api_->Status("a1"), "Enforced", "status"), "False");
  EXPECT_EQ(ConditionOf(api_->Status("a1"), "Enforced", "reason"), "HoldOff");
  clock_->Step(300s);
  (void)Settle(*r, "a1");
  EXPECT_EQ(Rule("a1"), nullptr);
  EXPECT_EQ(ConditionOf(api_->Status("a1"), "Enforced", "status"), "True");
}

TEST_F(DeviceHealthReconcilerTest, ZeroPreviewTaintsNoExecuteInOneWrite) {
  auto r = Make(Options(0s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy"));
  EXPECT_EQ(Settle(*r, "a1").kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(api_->applies, 1);
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoExecute);
  EXPECT_EQ(events_, (std::vector<std::string>{"TaintApplied", "DeviceTaintedNoExecute"}));
}

// Issue 55: stateSince was stored in whole seconds, rounded down, and a new
// leader timed the hold-off from that: it lifted the rule up to 1 s early.
TEST_F(DeviceHealthReconcilerTest, ANewLeaderEndsTheHoldOffToTheMillisecond) {
  clock_->Step(930ms);
  auto before = Make(Options(0s, 30s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded"));
  (void)Settle(*before, "a1");
  api_->Put(Health("a1", "node-a", "gpu-1", "Healthy", 2));
  (void)Settle(*before, "a1");
  EXPECT_EQ(api_->Status("a1")["stateSince"], "2027-01-15T08:00:00.930Z");
  clock_->Step(29'500ms);
  auto after = Make(Options(0s, 30s));  // a failover: the new leader has only the objects
  auto result = Settle(*after, "a1");
  ASSERT_NE(Rule("a1"), nullptr) << "lifted 0.5 s before the hold-off ended";
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_EQ(result.requeue_after, 500ms);
  std::string message = ConditionOf(api_->Status("a1"), "Tainted", "message");
  EXPECT_NE(message.find("until 2027-01-15T08:00:30.930Z"), std::string::npos) << message;
  clock_->Step(500ms);
  (void)Settle(*after, "a1");
  EXPECT_EQ(Rule("a1"), nullptr);
}

// A status written in whole seconds (before stateSince carried milliseconds)
// reads as the end of its second: the timer may end late, never early.
TEST_F(DeviceHealthReconcilerTest, AWholeSecondStateSinceNeverEndsATimerEarly) {
  auto r = Make(Options(30s));
  api_->Put(Health("a1", "node-a", "gpu-1", "Unhealthy"));
  (void)Settle(*r, "a1");
  json status = api_->Status("a1");
  status["stateSince"] = "2027-01-15T08:00:00Z";  // the clock is at 08:00:00.000
  ASSERT_TRUE(api_->PatchStatus("a1", status).ok());
  clock_->Step(30s);
  auto restarted = Make(Options(30s));
  auto result = restarted->Reconcile("a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(result.requeue_after, 1s);
  clock_->Step(1s);
  (void)Settle(*restarted, "a1");
  EXPECT_EQ(Rule("a1")->taint.effect, TaintEffect::kNoExecute);
}

// Issue 55: a whole pool over the storm guard's cap said "then NoExecute"
// through its preview, although NoExecute can never be admitted.
TEST_F(DeviceHealthReconcilerTest, APreviewThatNoExecuteCanNeverFollowSaysSo) {
  HealthOptions options = Options(30s);
  options.storm_share = 0.25;
  auto r = Make(options);
  api_->Put(Health("pool", "node-a", "", "Unhealthy"));
  (void)Settle(*r, "pool");
  std::string message = ConditionOf(api_->Status("pool"), "Tainted", "message");
  EXPECT_EQ(ConditionOf(api_->Status("pool"), "Tainted", "reason"), "Preview");
  EXPECT_EQ(message.find("then NoExecute"), std::string::npos) << message;
  EXPECT_NE(message.find("no NoExecute follows"), std::string::npos) << message;
  EXPECT_NE(message.find("covers 4 devices, more than the cap of 1"), std::string::npos) << message;
  // A single device fits: its preview still promises NoExecute.
  api_->Put(Health("one", "node-a", "gpu-2", "Unhealthy"));
  (void)Settle(*r, "one");
  message = ConditionOf(api_->Status("one"), "Tainted", "message");
  EXPECT_NE(message.find("then NoExecute"), std::string::npos) << message;
}

// Issue 55: an ambiguous target's timer ran while nothing could be written;
// when it resolved, the device went straight to NoExecute with no preview.
TEST_F(DeviceHealthReconcilerTest, ATargetThatResolvesLateGetsItsPreviewOnTheDevice) {
  for (const char* node : {"node-c", "node-d"}) {
    api::Device gpu = testing::Gpu("gpu-7", 80, "m");
    gpu.attributes.emplace_back("uuid", api::AttributeValue(std::string("GPU-TWICE")));
    inventory_.ApplySlice(testing::Slice(std::string(node) + "-slice", node, {gpu}));
  }
  auto r = Make(Options(30s));
  json health = Health("twice", "", "", "Unhealthy");
  health["spec"].erase("pool");
  health["spec"].erase("driver");
  health["spec"]["uuid"] = "GPU-TWICE";
  api_->Put(health);
  auto result = Settle(*r, "twice");
  EXPECT_EQ(api_->applies, 0);
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kDone) << "no timer runs without a rule";
  EXPECT_TRUE(api_->Status("twice")["stateSince"].is_null());
  clock_->Step(60s);
  inventory_.ApplySlice(testing::Slice("node-d-slice", "node-d", {testing::Gpu("gpu-0", 80, "m")}));
  result = Settle(*r, "twice");
  ASSERT_NE(Rule("twice"), nullptr);
  EXPECT_EQ(Rule("twice")->taint.effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(ConditionOf(api_->Status("twice"), "Tainted", "reason"), "Preview");
  EXPECT_EQ(result.requeue_after, 30s);
}

// Issue 55: a DeviceHealth deleted while it was reconciled logged an
// error-level NotFound from its status write.
TEST_F(DeviceHealthReconcilerTest, ADeletionDuringTheReconcileIsNoError) {
  auto r = Make(Options());
  api_->Put(Health("a1", "node-a", "gpu-1", "Degraded"));
  api_->status_not_found = true;
  auto result = r->Reconcile("a1");
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kDone);
}

}  // namespace
}  // namespace dra::health
