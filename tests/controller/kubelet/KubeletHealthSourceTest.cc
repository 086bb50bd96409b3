#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <map>
#include <mutex>
#include <set>

#include "controller/health/SourcedHealth.h"
#include "controller/kubelet/HealthObjectName.h"
#include "controller/kubelet/KubeletHealthSource.h"
#include "tests/controller/kubelet/KubeletTestPods.h"

namespace dra::kubelet {
namespace {

using Health = api::PodView::ReportedHealth;
using testing::PodReporting;
const char* kGpu0 = "gpu.example.com/node-a/gpu-0";

// Records what the source applies; the "cluster" it writes to is `objects`,
// which the test turns into the informer cache when it wants to.
class FakeSourcedHealthWriter : public health::SourcedHealthWriter {
 public:
  kube::Result<health::SourcedWrite> Apply(const health::SourcedHealth& h) override {
    applied.push_back(h);
    if (!fail.ok()) return fail;
    return result;
  }
  kube::Result<std::optional<api::DeviceHealth>> Get(const std::string&,
                                                     const std::string&) override {
    return std::optional<api::DeviceHealth>();
  }

  std::vector<health::SourcedHealth> applied;
  health::SourcedWrite result = health::SourcedWrite::kCreated;
  kube::Status fail = kube::Status::Ok();
};

api::DeviceHealth Cached(const health::SourcedHealth& h, const std::string& source = "kubelet") {
  api::DeviceHealth cached;
  cached.meta.name = h.name;
  if (!source.empty()) cached.meta.labels.push_back({health::kSourceLabel, source});
  cached.driver = h.driver;
  cached.pool = h.pool;
  cached.device = h.device;
  cached.state = h.state;
  cached.state_text = api::HealthStateName(h.state);
  cached.reason = h.reason;
  cached.message = h.message;
  return cached;
}

class KubeletHealthSourceTest : public ::testing::Test {
 protected:
  KubeletHealthSourceTest() {
    KubeletHealthSource::Inputs inputs;
    inputs.pods = [this] { return pods_; };
    inputs.health = [this](const std::string& name) -> std::shared_ptr<const api::DeviceHealth> {
      auto it = cache_.find(name);
      return it == cache_.end() ? nullptr : std::make_shared<api::DeviceHealth>(it->second);
    };
    inputs.remove = [this](const api::DeviceHealth& h) {
      removed_.push_back(h.meta.name);
      cache_.erase(h.meta.name);
      return kube::Status::Ok();
    };
    // The cluster's answer: every Pod holds what it reports, unless a test
    // names the only Pods that hold the device.
    inputs.verify = [this](const api::PodView& pod, const inventory::DeviceKey&) {
      if (holders_.empty() || holders_.contains(pod.meta.name)) return ReportTrust::kTrusted;
      return ReportTrust::kNotAllocated;
    };
    source_ = std::make_unique<KubeletHealthSource>(
        std::move(inputs), writer_, std::make_shared<KubeletHealthMetrics>(registry_));
  }

  // Reconciles the device; then the informer catches up with the last write.
  kube::ReconcileResult Reconcile(const std::string& key = kGpu0) {
    size_t before = writer_->applied.size();
    auto result = source_->Reconcile(key);
    if (writer_->applied.size() > before) {
      const auto& last = writer_->applied.back();
      cache_[last.name] = Cached(last);
    }
    return result;
  }

  std::string Metrics() { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

  std::vector<std::shared_ptr<const api::PodView>> pods_;
  std::set<std::string> holders_;  // empty: every Pod holds what it reports
  std::map<std::string, api::DeviceHealth> cache_;
  std::vector<std::string> removed_;
  std::shared_ptr<FakeSourcedHealthWriter> writer_ = std::make_shared<FakeSourcedHealthWriter>();
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::unique_ptr<KubeletHealthSource> source_;
};

TEST_F(KubeletHealthSourceTest, AnUnhealthyReportBecomesAKubeletDeviceHealth) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  EXPECT_EQ(Reconcile().kind, kube::ReconcileResult::Kind::kDone);
  ASSERT_EQ(writer_->applied.size(), 1u);
  const auto& h = writer_->applied[0];
  EXPECT_EQ(h.name, HealthObjectName::For({"gpu.example.com", "node-a", "gpu-0"}));
  EXPECT_EQ(h.source, "kubelet");
  EXPECT_EQ(h.driver, "gpu.example.com");
  EXPECT_EQ(h.pool, "node-a");
  EXPECT_EQ(h.device, "gpu-0");
  EXPECT_TRUE(h.uuid.empty() && h.node.empty() && !h.index.has_value());
  EXPECT_EQ(h.state, api::HealthState::kUnhealthy);
  EXPECT_EQ(h.reason, "KubeletReportedUnhealthy");
  EXPECT_EQ(h.message, "kubelet reports Unhealthy: ml/train container main claim gpu/one");
  EXPECT_NE(Metrics().find("dra_controller_kubelet_health_writes_total{outcome=\"created\"} 1"),
            std::string::npos)
      << Metrics();
  EXPECT_NE(Metrics().find("dra_controller_kubelet_health_reports_total{health=\"Unhealthy\"} 1"),
            std::string::npos);
}

TEST_F(KubeletHealthSourceTest, AnUnchangedWorldMakesNoWrite) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  Reconcile();
  Reconcile();
  Reconcile();
  EXPECT_EQ(writer_->applied.size(), 1u);
}

TEST_F(KubeletHealthSourceTest, AHealthyDeviceWithoutAnObjectGetsNone) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kHealthy}})};
  Reconcile();
  EXPECT_TRUE(writer_->applied.empty());
}

TEST_F(KubeletHealthSourceTest, UnknownWhenNoReportIsUnhealthy) {
  pods_ = {PodReporting("a", {{kGpu0, Health::kHealthy}}),
           PodReporting("b", {{kGpu0, Health::kUnhealthy}})};
  Reconcile();
  pods_ = {PodReporting("a", {{kGpu0, Health::kHealthy}}),
           PodReporting("b", {{kGpu0, Health::kUnknown}})};
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 2u);
  EXPECT_EQ(writer_->applied[1].state, api::HealthState::kUnknown);
  EXPECT_EQ(writer_->applied[1].reason, "KubeletReportedUnknown");
  EXPECT_EQ(writer_->applied[1].message,
            "kubelet reports Unknown: ml/b container main claim gpu/one");
}

// The kubelet reports every device of a driver without health streaming as
// Unknown: that alone must not give each allocated device an object.
TEST_F(KubeletHealthSourceTest, UnknownAloneCreatesNoObject) {
  pods_ = {PodReporting("b", {{kGpu0, Health::kUnknown}})};
  Reconcile();
  EXPECT_TRUE(writer_->applied.empty());
}

// Issue 46: the Pod that reported the device Unhealthy is evicted and
// deleted; the source wrote Healthy, and the GPU went back into service on
// no evidence at all. Only a Healthy report reopens it.
TEST_F(KubeletHealthSourceTest, AbsenceOfReportsIsNotAHealthyReport) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  Reconcile();
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}}, "Failed")};  // evicted
  Reconcile();
  pods_.clear();  // and deleted
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 1u) << "only the Unhealthy report was written";
  EXPECT_EQ(cache_.begin()->second.state, api::HealthState::kUnhealthy);
  EXPECT_TRUE(removed_.empty());
  // A later Pod on the device (one that tolerates the taint) reports it Healthy.
  pods_ = {PodReporting("probe", {{kGpu0, Health::kHealthy}})};
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 2u);
  EXPECT_EQ(writer_->applied[1].state, api::HealthState::kHealthy);
  EXPECT_EQ(writer_->applied[1].reason, "KubeletReportedHealthy");
  EXPECT_EQ(writer_->applied[1].message,
            "kubelet reports Healthy: ml/probe container main claim gpu/one");
}

// Issue 47: a Pod's status is the Pod's claim, not the cluster's: a report for
// a device none of its claims holds (or on another node) changes nothing.
TEST_F(KubeletHealthSourceTest, AReportForADeviceThePodDoesNotHoldIsIgnoredAndCounted) {
  holders_ = {"train"};
  pods_ = {PodReporting("intruder", {{kGpu0, Health::kUnhealthy}})};
  Reconcile();
  EXPECT_TRUE(writer_->applied.empty());
  EXPECT_NE(Metrics().find(
                "dra_controller_kubelet_health_reports_ignored_total{reason=\"not_allocated\"} 1"),
            std::string::npos)
      << Metrics();
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}}),
           PodReporting("intruder", {{kGpu0, Health::kHealthy}})};
  Reconcile();
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}}, "Failed"),
           PodReporting("intruder", {{kGpu0, Health::kHealthy}})};
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 1u) << "the intruder's Healthy report does not reopen it";
  EXPECT_EQ(writer_->applied[0].state, api::HealthState::kUnhealthy);
}

TEST_F(KubeletHealthSourceTest, FlappingWritesEachChangeOnce) {
  const std::vector<Health> sequence = {Health::kUnhealthy, Health::kHealthy, Health::kUnhealthy,
                                        Health::kUnhealthy, Health::kHealthy, Health::kHealthy};
  for (Health health : sequence) {
    pods_ = {PodReporting("train", {{kGpu0, health}})};
    Reconcile();
  }
  std::vector<api::HealthState> written;
  for (const auto& h : writer_->applied) written.push_back(h.state);
  EXPECT_EQ(written, (std::vector<api::HealthState>{
                         api::HealthState::kUnhealthy, api::HealthState::kHealthy,
                         api::HealthState::kUnhealthy, api::HealthState::kHealthy}));
  for (const auto& h : writer_->applied) EXPECT_EQ(h.name, writer_->applied[0].name);
}

TEST_F(KubeletHealthSourceTest, APersonsObjectOfThatNameIsLeftAlone) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  health::SourcedHealth mine = KubeletHealthSource::Desired({"gpu.example.com", "node-a", "gpu-0"},
                                                            {api::HealthState::kHealthy, {}});
  cache_[mine.name] = Cached(mine, "");
  Reconcile();
  EXPECT_TRUE(writer_->applied.empty());
  EXPECT_NE(Metrics().find("dra_controller_kubelet_health_writes_total{outcome=\"not_ours\"} 1"),
            std::string::npos)
      << Metrics();
}

// Issue 46: the deletion of an object that squatted the source's name went
// unnoticed until the Pod's status changed again.
TEST_F(KubeletHealthSourceTest, TheDeletionOfASquattingObjectBringsTheReportBack) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  health::SourcedHealth mine = KubeletHealthSource::Desired({"gpu.example.com", "node-a", "gpu-0"},
                                                            {api::HealthState::kHealthy, {}});
  cache_[mine.name] = Cached(mine, "");
  mine.device = "someone-elses";  // what the squatter's spec names does not matter
  cache_[mine.name].device = "someone-elses";
  Reconcile();
  ASSERT_TRUE(writer_->applied.empty());
  api::DeviceHealth squatter = cache_[mine.name];
  cache_.erase(mine.name);
  EXPECT_EQ(source_->KeysOfHealth(squatter), std::vector<std::string>{kGpu0});
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 1u);
  EXPECT_EQ(writer_->applied[0].state, api::HealthState::kUnhealthy);
}

TEST_F(KubeletHealthSourceTest, AFailedWriteIsRetried) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  writer_->fail = kube::Status(kube::StatusCode::kUnavailable, "apiserver down");
  EXPECT_EQ(source_->Reconcile(kGpu0).kind, kube::ReconcileResult::Kind::kError);
  EXPECT_NE(Metrics().find("dra_controller_kubelet_health_writes_total{outcome=\"error\"} 1"),
            std::string::npos);
}

TEST_F(KubeletHealthSourceTest, TheMessageNamesEveryReporterWithinItsLimit) {
  for (int i = 0; i < 100; ++i) {
    pods_.push_back(PodReporting("pod-" + std::to_string(i), {{kGpu0, Health::kUnhealthy}}));
  }
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 1u);
  const std::string& message = writer_->applied[0].message;
  EXPECT_LE(message.size(), 1024u);
  EXPECT_NE(message.find("ml/pod-0 container main claim gpu/one; ml/pod-1 "), std::string::npos);
  EXPECT_NE(message.find(" more)"), std::string::npos) << message;
}

TEST_F(KubeletHealthSourceTest, EventsMapToDeviceKeys) {
  auto pod = PodReporting("train", {{kGpu0, Health::kUnhealthy}});
  EXPECT_EQ(source_->KeysOfPod(*pod), std::vector<std::string>{kGpu0});
  health::SourcedHealth h = KubeletHealthSource::Desired({"gpu.example.com", "node-a", "gpu-0"},
                                                         {api::HealthState::kUnhealthy, {}});
  EXPECT_EQ(source_->KeysOfHealth(Cached(h)), std::vector<std::string>{kGpu0});
  EXPECT_TRUE(source_->KeysOfHealth(Cached(h, "")).empty());
  EXPECT_TRUE(source_->KeysOfHealth(Cached(h, "alertmanager")).empty());
}

// Device health's status of a Healthy object: Enforced=True, and the rule
// (`rule`) still there during the hold-off or gone after it.
void Settle(api::DeviceHealth& h, const std::string& rule) {
  h.generation = 3;
  h.status.observed_generation = 3;
  h.status.rule_name = rule;
  h.status.conditions.push_back({"Enforced", "True", "Applied", "", ""});
}

TEST_F(KubeletHealthSourceTest, AHealthyObjectIsDeletedOnceItsTaintIsGone) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  Reconcile();
  pods_ = {PodReporting("train", {{kGpu0, Health::kHealthy}})};
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 2u);
  std::string name = writer_->applied[0].name;
  Reconcile();
  EXPECT_TRUE(removed_.empty()) << "device health has not acted on Healthy yet";
  Settle(cache_[name], "devicehealth-" + name);
  Reconcile();
  EXPECT_TRUE(removed_.empty()) << "the hold-off keeps the rule";
  cache_[name].status.rule_name.clear();
  cache_[name].generation = 4;
  Reconcile();
  EXPECT_TRUE(removed_.empty()) << "the status is of an older spec";
  cache_[name].status.observed_generation = 4;
  Reconcile();
  EXPECT_EQ(removed_, std::vector<std::string>{name});
  EXPECT_EQ(writer_->applied.size(), 2u);
  EXPECT_NE(Metrics().find("dra_controller_kubelet_health_writes_total{outcome=\"deleted\"} 1"),
            std::string::npos);
}

TEST_F(KubeletHealthSourceTest, OnlyHealthyObjectsAreRetired) {
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnhealthy}})};
  Reconcile();
  pods_ = {PodReporting("train", {{kGpu0, Health::kUnknown}})};
  Reconcile();
  ASSERT_EQ(writer_->applied.size(), 2u);
  std::string name = writer_->applied[0].name;
  Settle(cache_[name], "");  // Unknown: effect None, and say the rule is gone
  Reconcile();
  EXPECT_TRUE(removed_.empty());
  EXPECT_FALSE(KubeletHealthSource::Retired(cache_[name]));
}

}  // namespace
}  // namespace dra::kubelet
