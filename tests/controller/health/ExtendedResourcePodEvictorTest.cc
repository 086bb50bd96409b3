#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <algorithm>

#include "controller/health/ExtendedResourcePodEvictor.h"
#include "controller/health/TaintRuleBuilder.h"
#include "src/base/FakeClock.h"
#include "src/cache/Store.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::health {
namespace {

using api::DeviceToleration;
using Kind = kube::ReconcileResult::Kind;

// Plays the Eviction API: records each call and answers with the status
// queued for that Pod (OK by default).
class FakePodEvictor : public PodEvictor {
 public:
  kube::Status Evict(const std::string& ns, const std::string& name,
                     const std::string& uid) override {
    calls.push_back(ns + "/" + name + "@" + uid);
    auto it = answers.find(name);
    return it == answers.end() ? kube::Status::Ok() : it->second;
  }
  std::vector<std::string> calls;
  std::map<std::string, kube::Status> answers;
};

class ExtendedResourcePodEvictorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<api::Device> gpus;
    for (int i = 0; i < 12; ++i) gpus.push_back(testing::Gpu("gpu-" + std::to_string(i), 80, "m"));
    inventory_.ApplySlice(testing::Slice("node-a-slice", "node-a", gpus));
  }

  // Pod `pod` holds gpu-`index` through an implicit extended-resource claim
  // (or, with `extended` false, a claim of its spec.resourceClaims).
  void Hold(const std::string& pod, int index, bool extended = true,
            std::vector<DeviceToleration> tolerations = {}) {
    auto claim = std::const_pointer_cast<api::ResourceClaim>(
        testing::Claim("ns", pod + "-claim", {{"node-a", "gpu-" + std::to_string(index)}}, {pod}));
    claim->extended_resource_claim = extended;
    claim->results[0].tolerations = std::move(tolerations);
    inventory_.ApplyClaim(claim);
  }

  // Device health's rule for the whole pool, or one labelled as someone else's.
  std::string Rule(api::TaintEffect effect, bool ours = true, std::string time_added = "") {
    api::DeviceHealth health;
    health.meta.name = ours ? "pool-a" : "foreign";
    health.driver = "gpu.example.com";
    health.pool = "node-a";
    health.reason = "XidError";
    nlohmann::json json = TaintRuleBuilder::Build(health, effect);
    json["apiVersion"] = "resource.k8s.io/v1";
    if (!ours) json["metadata"]["labels"].erase(kManagedByLabel);
    if (!time_added.empty()) json["spec"]["taint"]["timeAdded"] = time_added;
    auto rule = ProjectJson<api::DeviceTaintRule>(json);
    EXPECT_NE(rule, nullptr);
    rules_.Upsert(rule);
    return rule->meta.name;
  }

  ExtendedResourcePodEvictor& Evictor(ExtendedResourcePodEvictor::Rate rate = {2, 5}) {
    evictor_ = std::make_unique<ExtendedResourcePodEvictor>(
        rules_, inventory_, pods_,
        [this](const kube::ObjectReference& o, const std::string& type, const std::string& reason,
               const std::string& message) {
          events_.push_back(o.name + " " + type + " " + reason + ": " + message);
        },
        clock_, rate, registry_);
    return *evictor_;
  }

  std::vector<std::string> Calls() {
    auto calls = pods_->calls;
    std::sort(calls.begin(), calls.end());
    return calls;
  }

  std::string Metrics() { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

  inventory::Inventory inventory_;
  kube::Store<api::DeviceTaintRule> rules_;
  std::shared_ptr<FakePodEvictor> pods_ = std::make_shared<FakePodEvictor>();
  // Wall time 2026-12-06T00:00:00Z.
  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>(
      kube::Clock::TimePoint{},
      std::chrono::system_clock::time_point(std::chrono::seconds(1796515200)));
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::vector<std::string> events_;
  std::unique_ptr<ExtendedResourcePodEvictor> evictor_;
};

TEST_F(ExtendedResourcePodEvictorTest, EvictsTheExtendedResourcePodOfOurNoExecuteRule) {
  Hold("trainer", 0);
  auto result = Evictor().Reconcile(Rule(api::TaintEffect::kNoExecute));
  EXPECT_EQ(result.kind, Kind::kDone);
  EXPECT_EQ(Calls(), (std::vector<std::string>{"ns/trainer@trainer-uid"}));
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_NE(events_[0].find("trainer Warning DeviceTaintEviction"), std::string::npos)
      << events_[0];
  EXPECT_NE(events_[0].find("gpu.example.com/node-a/gpu-0"), std::string::npos) << events_[0];
  EXPECT_NE(events_[0].find("devicehealth-pool-a"), std::string::npos) << events_[0];
  EXPECT_NE(Metrics().find(
                "dra_controller_health_extended_resource_evictions_total{outcome=\"evicted\"} 1"),
            std::string::npos)
      << Metrics();
}

TEST_F(ExtendedResourcePodEvictorTest, LeavesOtherEffectsAndForeignRulesAlone) {
  Hold("trainer", 0);
  Evictor().Reconcile(Rule(api::TaintEffect::kNoSchedule));
  Evictor().Reconcile(Rule(api::TaintEffect::kNone));
  Evictor().Reconcile(Rule(api::TaintEffect::kNoExecute, /*ours=*/false));
  Evictor().Reconcile("no-such-rule");
  EXPECT_EQ(Calls(), std::vector<std::string>());
  EXPECT_TRUE(events_.empty());
}

// The cluster's controller evicts Pods of spec.resourceClaims itself.
TEST_F(ExtendedResourcePodEvictorTest, OnlyPodsOfImplicitClaims) {
  Hold("implicit", 0);
  Hold("explicit", 1, /*extended=*/false);
  Evictor().Reconcile(Rule(api::TaintEffect::kNoExecute));
  EXPECT_EQ(Calls(), (std::vector<std::string>{"ns/implicit@implicit-uid"}));
}

TEST_F(ExtendedResourcePodEvictorTest, APodToleratingTheTaintForGoodStays) {
  Hold("for-good", 0, true,
       {DeviceToleration::Make(kTaintKey, "", "Exists", "NoExecute", std::nullopt)});
  Hold("no-effect", 1, true, {DeviceToleration::Make(kTaintKey, "", "Exists", "", std::nullopt)});
  Evictor().Reconcile(Rule(api::TaintEffect::kNoExecute));
  EXPECT_EQ(Calls(), (std::vector<std::string>{"ns/no-effect@no-effect-uid"}));
}

// As the eviction controller does: N seconds after the taint was added.
TEST_F(ExtendedResourcePodEvictorTest, ATolerationForSomeSecondsDelaysTheEviction) {
  Hold("patient", 0, true, {DeviceToleration::Make(kTaintKey, "", "Exists", "NoExecute", 60)});
  auto& evictor = Evictor();
  std::string rule = Rule(api::TaintEffect::kNoExecute, true, "2026-12-06T00:00:00Z");
  auto early = evictor.Reconcile(rule);
  EXPECT_EQ(early.kind, Kind::kRequeueAfter);
  EXPECT_EQ(early.requeue_after, std::chrono::seconds(60));
  clock_->Step(std::chrono::seconds(59));
  evictor.Reconcile(rule);
  EXPECT_EQ(Calls(), std::vector<std::string>());
  clock_->Step(std::chrono::seconds(1));
  EXPECT_EQ(evictor.Reconcile(rule).kind, Kind::kDone);
  EXPECT_EQ(Calls(), (std::vector<std::string>{"ns/patient@patient-uid"}));
}

TEST_F(ExtendedResourcePodEvictorTest, EvictsAtTheBoundedRate) {
  for (int i = 0; i < 8; ++i) Hold("pod-" + std::to_string(i), i);
  auto& evictor = Evictor({2, 5});
  std::string rule = Rule(api::TaintEffect::kNoExecute);
  auto first = evictor.Reconcile(rule);
  EXPECT_EQ(pods_->calls.size(), 5u);  // the burst
  EXPECT_EQ(first.kind, Kind::kRequeueAfter);
  EXPECT_EQ(first.requeue_after, std::chrono::milliseconds(500));
  evictor.Reconcile(rule);  // no time passed: no token
  EXPECT_EQ(pods_->calls.size(), 5u);
  clock_->Step(std::chrono::milliseconds(500));
  evictor.Reconcile(rule);
  EXPECT_EQ(pods_->calls.size(), 6u);
  clock_->Step(std::chrono::seconds(1));
  EXPECT_EQ(evictor.Reconcile(rule).kind, Kind::kDone);
  EXPECT_EQ(pods_->calls.size(), 8u);
  EXPECT_EQ(Calls().size(), 8u);
  std::sort(pods_->calls.begin(), pods_->calls.end());
  EXPECT_EQ(std::unique(pods_->calls.begin(), pods_->calls.end()), pods_->calls.end())
      << "a Pod evicted twice";
}

TEST_F(ExtendedResourcePodEvictorTest, ABudgetsRefusalIsRetriedLater) {
  Hold("guarded", 0);
  pods_->answers["guarded"] =
      kube::Status(kube::StatusCode::kTooManyRequests, "would violate the disruption budget");
  auto& evictor = Evictor();
  std::string rule = Rule(api::TaintEffect::kNoExecute);
  auto refused = evictor.Reconcile(rule);
  EXPECT_EQ(refused.kind, Kind::kRequeueAfter);
  EXPECT_EQ(refused.requeue_after, ExtendedResourcePodEvictor::kBlockedRetry);
  EXPECT_TRUE(events_.empty());
  pods_->answers.erase("guarded");
  EXPECT_EQ(evictor.Reconcile(rule).kind, Kind::kDone);
  EXPECT_EQ(pods_->calls.size(), 2u);
  EXPECT_EQ(events_.size(), 1u);
  std::string metrics = Metrics();
  EXPECT_NE(metrics.find("{outcome=\"blocked\"} 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("{outcome=\"evicted\"} 1"), std::string::npos) << metrics;
}

TEST_F(ExtendedResourcePodEvictorTest, AGonePodIsDoneAndAnEvictedOneNotAskedAgain) {
  Hold("gone", 0);
  Hold("terminating", 1);
  pods_->answers["gone"] = kube::Status(kube::StatusCode::kNotFound, "pods \"gone\" not found");
  auto& evictor = Evictor();
  std::string rule = Rule(api::TaintEffect::kNoExecute);
  EXPECT_EQ(evictor.Reconcile(rule).kind, Kind::kDone);
  // Both claims still hold their devices (the Pods terminate): nothing more.
  EXPECT_EQ(evictor.Reconcile(rule).kind, Kind::kDone);
  EXPECT_EQ(pods_->calls.size(), 2u);
  EXPECT_EQ(events_.size(), 1u);
  EXPECT_NE(Metrics().find("{outcome=\"gone\"} 1"), std::string::npos) << Metrics();
}

TEST_F(ExtendedResourcePodEvictorTest, AnotherFailureIsAnErrorToRetry) {
  Hold("trainer", 0);
  pods_->answers["trainer"] =
      kube::Status(kube::StatusCode::kForbidden, "cannot create pods/eviction");
  auto result = Evictor().Reconcile(Rule(api::TaintEffect::kNoExecute));
  EXPECT_EQ(result.kind, Kind::kError);
  EXPECT_NE(result.error.message().find("pods/eviction"), std::string::npos);
}

}  // namespace
}  // namespace dra::health
