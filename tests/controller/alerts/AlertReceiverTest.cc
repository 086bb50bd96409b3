#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "controller/alerts/AlertReceiver.h"
#include "controller/alerts/ResolutionStore.h"
#include "controller/health/SourcedHealth.h"

namespace dra::alerts {
namespace {

// DeviceHealths in memory, written the way RestSourcedHealthWriter does.
class FakeStore : public AlertHealthStore {
 public:
  struct Object {
    std::string source;
    health::SourcedHealth last;
  };

  kube::Result<StoredAlerts> Read(const std::string& name) override {
    if (!fail.ok()) return fail;
    auto it = objects.find(name);
    if (it == objects.end()) return StoredAlerts{};
    auto ledger = it->second.last.annotations.find(AlertLedger::kAnnotation);
    return StoredAlerts{true, it->second.source == "alertmanager",
                        ledger == it->second.last.annotations.end() ? "" : ledger->second};
  }
  kube::Result<health::SourcedWrite> Write(const health::SourcedHealth& health) override {
    ++writes;
    auto it = objects.find(health.name);
    if (it != objects.end() && it->second.source != health.source) {
      return health::SourcedWrite::kNotOurs;
    }
    objects[health.name] = {health.source, health};
    return it == objects.end() ? health::SourcedWrite::kCreated : health::SourcedWrite::kUpdated;
  }

  std::map<std::string, Object> objects;
  int writes = 0;
  kube::Status fail = kube::Status::Ok();
};

// The resolution memory in memory, as RestResolutionStore keeps it in a ConfigMap.
class FakeResolutions : public ResolutionStore {
 public:
  kube::Result<ResolutionMemory> Load() override {
    ++loads;
    if (!fail.ok()) return fail;
    return memory;
  }
  kube::Status Add(const std::vector<ResolutionMemory::Entry>& resolved) override {
    ++adds;
    if (!fail.ok()) return fail;
    for (const auto& entry : resolved) memory.Add(entry);
    memory.Prune();
    return kube::Status::Ok();
  }

  ResolutionMemory memory;
  int loads = 0;
  int adds = 0;
  kube::Status fail = kube::Status::Ok();
};

Alert Xid(const std::string& uuid, bool firing, int64_t at, const std::string& fingerprint = "f") {
  Alert alert;
  alert.firing = firing;
  alert.labels = {{"alertname", "GPUXidCritical"}, {"UUID", uuid}};
  alert.annotations = {{"summary", "Xid 79"}};
  alert.starts_at_ms = firing ? at : at - 50;
  alert.ends_at_ms = firing ? -1 : at;
  alert.fingerprint = fingerprint;
  return alert;
}

AlertmanagerPayload Payload(std::vector<Alert> alerts) {
  AlertmanagerPayload payload;
  payload.alerts = std::move(alerts);
  return payload;
}

class AlertReceiverTest : public ::testing::Test {
 protected:
  AlertReceiverTest() { Start(); }

  // A new receiver on the same stores: a restart, or another replica.
  void Start() {
    AlertReceiver::Inputs inputs;
    inputs.count_devices = [this](const GpuAlert& alert) {
      auto it = devices_.find(alert.uuid.empty() ? alert.node : alert.uuid);
      return it == devices_.end() ? size_t{0} : it->second;
    };
    inputs.store = store_;
    inputs.warn = [this](const std::string& reason, const std::string& message) {
      warnings_.push_back(reason + ": " + message);
    };
    inputs.metrics = std::make_shared<AlertMetrics>(registry_);
    inputs.resolutions = resolutions_;
    receiver_ = std::make_unique<AlertReceiver>(std::move(inputs));
  }

  std::vector<AlertOutcome> Receive(std::vector<Alert> alerts) {
    auto outcomes = receiver_->Receive(Payload(std::move(alerts)));
    EXPECT_TRUE(outcomes.ok()) << outcomes.status().ToString();
    return outcomes.ok() ? *outcomes : std::vector<AlertOutcome>{};
  }

  const health::SourcedHealth& Only() {
    EXPECT_EQ(store_->objects.size(), 1u);
    return store_->objects.begin()->second.last;
  }

  std::string Exposition() { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

  std::map<std::string, size_t> devices_ = {{"GPU-1", 1}, {"GPU-2", 1}, {"GPU-TWICE", 2}};
  std::shared_ptr<FakeStore> store_ = std::make_shared<FakeStore>();
  std::shared_ptr<FakeResolutions> resolutions_ = std::make_shared<FakeResolutions>();
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::vector<std::string> warnings_;
  std::unique_ptr<AlertReceiver> receiver_;
};

TEST_F(AlertReceiverTest, FiringAlertWritesAnUnhealthyDeviceHealthForThatGpu) {
  auto outcomes = Receive({Xid("GPU-1", true, 100)});
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].outcome, "applied");
  const auto& h = Only();
  EXPECT_EQ(outcomes[0].health, h.name);
  EXPECT_EQ(h.source, "alertmanager");
  EXPECT_EQ(h.uuid, "GPU-1");
  EXPECT_TRUE(h.pool.empty());
  EXPECT_EQ(h.state, api::HealthState::kUnhealthy);
  EXPECT_EQ(h.reason, "GPUXidCritical");
  EXPECT_EQ(h.message, "Xid 79");
  EXPECT_TRUE(h.annotations.contains(AlertLedger::kAnnotation));
  EXPECT_NE(Exposition().find(R"(dra_controller_alerts_total{outcome="applied"} 1)"),
            std::string::npos);
}

TEST_F(AlertReceiverTest, ResolvedAlertSetsItHealthyAndRepeatsWriteNothing) {
  Receive({Xid("GPU-1", true, 100)});
  Receive({Xid("GPU-1", true, 100)});
  EXPECT_EQ(store_->writes, 1);
  auto outcomes = Receive({Xid("GPU-1", false, 200)});
  EXPECT_EQ(outcomes[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kHealthy);
  EXPECT_EQ(store_->writes, 2);
  // The firing notification arriving late changes nothing.
  outcomes = Receive({Xid("GPU-1", true, 100)});
  EXPECT_EQ(outcomes[0].outcome, "stale");
  EXPECT_EQ(Only().state, api::HealthState::kHealthy);
  EXPECT_EQ(store_->writes, 2);
}

TEST_F(AlertReceiverTest, FlappingAlertKeepsOneObjectTheReconcilerHoldsOff) {
  for (int i = 0; i < 10; ++i) {
    Receive({Xid("GPU-1", true, 1000 * i)});
    Receive({Xid("GPU-1", false, 1000 * i + 500)});
  }
  EXPECT_EQ(store_->objects.size(), 1u);
  EXPECT_EQ(Only().state, api::HealthState::kHealthy);
}

TEST_F(AlertReceiverTest, UnknownGpuGetsAWarningAndNoWrite) {
  auto outcomes = Receive({Xid("GPU-404", true, 100), Xid("GPU-TWICE", true, 100)});
  EXPECT_EQ(outcomes[0].outcome, "unknown_device");
  EXPECT_EQ(outcomes[1].outcome, "ambiguous_device");
  EXPECT_EQ(store_->writes, 0);
  ASSERT_EQ(warnings_.size(), 2u);
  EXPECT_NE(warnings_[0].find("UnknownDevice: alert GPUXidCritical: no published device has UUID "
                              "\"GPU-404\""),
            std::string::npos)
      << warnings_[0];
  EXPECT_NE(warnings_[1].find("AmbiguousDevice"), std::string::npos);
  EXPECT_NE(Exposition().find(R"(dra_controller_alerts_total{outcome="unknown_device"} 1)"),
            std::string::npos);
}

TEST_F(AlertReceiverTest, ResolvedAlertForAGpuWithoutAnObjectWritesNothing) {
  auto outcomes = Receive({Xid("GPU-404", false, 100)});
  EXPECT_EQ(outcomes[0].outcome, "unchanged");
  EXPECT_EQ(store_->writes, 0);
  EXPECT_TRUE(warnings_.empty());
}

// Issue 55: a resolution that arrives before its (older) firing notification,
// for a GPU without a DeviceHealth, was forgotten: the late firing created
// the object Unhealthy, and no later resolution would ever come to undo it.
TEST_F(AlertReceiverTest, ALateFiringAfterItsResolutionWritesNothing) {
  Receive({Xid("GPU-1", false, 200)});
  auto outcomes = Receive({Xid("GPU-1", true, 150)});
  EXPECT_EQ(outcomes[0].outcome, "stale");
  EXPECT_EQ(store_->writes, 0);
  // A newer firing is news.
  EXPECT_EQ(Receive({Xid("GPU-1", true, 300)})[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kUnhealthy);
}

TEST_F(AlertReceiverTest, ALateFiringAfterARestartIsStillStale) {
  Receive({Xid("GPU-1", false, 200)});
  Start();
  EXPECT_EQ(Receive({Xid("GPU-1", true, 150)})[0].outcome, "stale");
  EXPECT_EQ(store_->writes, 0);
}

TEST_F(AlertReceiverTest, ALateFiringAfterAPersonDeletedTheObjectIsStale) {
  Receive({Xid("GPU-1", true, 100)});
  Receive({Xid("GPU-1", false, 200)});
  EXPECT_EQ(Only().state, api::HealthState::kHealthy);
  store_->objects.clear();  // a person deletes it once the GPU is back
  Start();
  EXPECT_EQ(Receive({Xid("GPU-1", true, 150)})[0].outcome, "stale");
  EXPECT_TRUE(store_->objects.empty());
}

// The memory is read only for a firing alert of a GPU without an object,
// and written once per notification that resolves something.
TEST_F(AlertReceiverTest, TheResolutionMemoryIsReadAndWrittenOnlyWhenNeeded) {
  Receive({Xid("GPU-1", true, 100, "a"), Xid("GPU-2", true, 100, "a")});
  EXPECT_EQ(resolutions_->loads, 1) << "one read for the whole notification";
  Receive({Xid("GPU-1", true, 100, "a")});
  EXPECT_EQ(resolutions_->adds, 0);
  Receive({Xid("GPU-1", false, 200, "a"), Xid("GPU-2", false, 200, "a")});
  EXPECT_EQ(resolutions_->adds, 1);
  EXPECT_EQ(resolutions_->loads, 1);
}

// A memory that cannot be read or written never blocks an alert: a late
// firing then taints, the safe side, and the failure is logged.
TEST_F(AlertReceiverTest, AnUnreadableMemoryNeverBlocksAnAlert) {
  resolutions_->fail = kube::Status(kube::StatusCode::kForbidden, "configmaps forbidden");
  EXPECT_EQ(Receive({Xid("GPU-1", false, 200)})[0].outcome, "unchanged");
  EXPECT_EQ(Receive({Xid("GPU-1", true, 150)})[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kUnhealthy);
}

TEST_F(AlertReceiverTest, APersonsDeviceHealthIsNeverOverwritten) {
  auto name = AlertMapper().Map(Xid("GPU-1", true, 1))->health_name;
  store_->objects[name] = {"", {}};
  auto outcomes = Receive({Xid("GPU-1", true, 100)});
  EXPECT_EQ(outcomes[0].outcome, "not_ours");
  EXPECT_EQ(store_->writes, 0);
}

TEST_F(AlertReceiverTest, AlertsOfOneGpuAreOneWriteAndOthersAreTheirOwn) {
  auto outcomes = Receive({Xid("GPU-1", true, 100, "xid"), Xid("GPU-1", true, 120, "ecc"),
                           Xid("GPU-2", true, 100, "xid")});
  EXPECT_EQ(store_->objects.size(), 2u);
  EXPECT_EQ(store_->writes, 2);
  EXPECT_EQ(outcomes[0].health, outcomes[1].health);
  EXPECT_NE(outcomes[0].health, outcomes[2].health);
  // One of two alerts resolved: still Unhealthy.
  Receive({Xid("GPU-1", false, 200, "xid")});
  EXPECT_EQ(store_->objects[outcomes[0].health].last.state, api::HealthState::kUnhealthy);
}

TEST_F(AlertReceiverTest, InvalidAlertsAreCountedAndTheRestApplied) {
  Alert nameless = Xid("", true, 100);
  auto outcomes = Receive({nameless, Xid("GPU-1", true, 100)});
  EXPECT_EQ(outcomes[0].outcome, "invalid");
  EXPECT_NE(outcomes[0].detail.find("names no GPU"), std::string::npos);
  EXPECT_EQ(outcomes[1].outcome, "applied");
}

TEST_F(AlertReceiverTest, ApiFailureIsAnErrorSoAlertmanagerRetries) {
  store_->fail = kube::Status(kube::StatusCode::kUnavailable, "API server down");
  auto outcomes = receiver_->Receive(Payload({Xid("GPU-1", true, 100)}));
  ASSERT_FALSE(outcomes.ok());
  EXPECT_EQ(outcomes.status().code(), kube::StatusCode::kUnavailable);
  store_->fail = kube::Status::Ok();
  EXPECT_EQ(Receive({Xid("GPU-1", true, 100)})[0].outcome, "applied");
}

TEST_F(AlertReceiverTest, ACorruptLedgerStartsAfresh) {
  Receive({Xid("GPU-1", true, 100)});
  auto& object = store_->objects.begin()->second.last;
  object.annotations[AlertLedger::kAnnotation] = "{not json";
  EXPECT_EQ(Receive({Xid("GPU-1", true, 100)})[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kUnhealthy);
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Repeated(const std::string& piece, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

// 10 KB of three-byte characters: the 1,024-byte cap falls inside one.
TEST_F(AlertReceiverTest, ALongNonAsciiSummaryIsAppliedCutAtACharacter) {
  Alert alert = Xid("GPU-1", true, 100);
  alert.annotations["summary"] = Repeated("\xE2\x82\xAC", 3400);
  auto outcomes = Receive({alert});
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].outcome, "applied");
  const std::string& message = Only().message;
  EXPECT_LE(message.size(), 1024u);
  EXPECT_GE(message.size(), 1020u);
  EXPECT_EQ(message.size() % 3, 0u) << "cut inside a character";
  EXPECT_NO_THROW((void)nlohmann::json(message).dump());
}

// A clock far ahead (or a forged time) must not make every later real
// notification of the same alert "stale".
TEST_F(AlertReceiverTest, AFarFutureTimeIsRefusedAndLaterNewsStillApplies) {
  int64_t now = NowMillis();
  Alert future = Xid("GPU-1", true, 253402300799000);  // 9999-12-31T23:59:59Z
  auto outcomes = Receive({future});
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].outcome, "invalid");
  EXPECT_NE(outcomes[0].detail.find("future"), std::string::npos) << outcomes[0].detail;
  EXPECT_EQ(Receive({Xid("GPU-1", true, now)})[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kUnhealthy);
  EXPECT_EQ(Receive({Xid("GPU-1", false, now + 1000)})[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kHealthy);
}

// A ledger already holding a far-future time (written before times were
// checked, or by hand) must not poison later news either.
TEST_F(AlertReceiverTest, AFarFutureTimeInAStoredLedgerDoesNotPoisonLaterNews) {
  int64_t now = NowMillis();
  Receive({Xid("GPU-1", true, now)});
  auto& object = store_->objects.begin()->second.last;
  object.annotations[AlertLedger::kAnnotation] =
      R"({"f":{"firing":true,"at":253402300799000,"state":"Unhealthy","reason":"X","message":""}})";
  EXPECT_EQ(Receive({Xid("GPU-1", false, now + 1000)})[0].outcome, "applied");
  EXPECT_EQ(Only().state, api::HealthState::kHealthy);
}

// Labels are outside input: what reaches an Event (and the log) is escaped
// and bounded, whatever a label holds.
TEST_F(AlertReceiverTest, LabelsInMessagesAreEscapedAndBounded) {
  Alert alert = Xid("GPU-9\nlevel=error forged line " + std::string(1 << 20, 'x'), true, 100);
  auto outcomes = Receive({alert});
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].outcome, "unknown_device");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].find('\n'), std::string::npos) << warnings_[0].substr(0, 200);
  EXPECT_LT(warnings_[0].size(), 1024u);
  EXPECT_LT(outcomes[0].detail.size(), 1024u);
}

// --alertmanager-required-labels: an alert from another job's series of the
// same name is refused, counted, and writes nothing; the exporter's applies.
TEST_F(AlertReceiverTest, AlertsWithoutTheRequiredLabelsAreRefusedAndCounted) {
  AlertReceiver::Inputs inputs;
  inputs.count_devices = [](const GpuAlert&) { return size_t{1}; };
  inputs.store = store_;
  inputs.metrics = std::make_shared<AlertMetrics>(registry_);
  inputs.required_labels = *AlertLabelFilter::Parse("job=nvidia-dcgm-exporter");
  AlertReceiver receiver(std::move(inputs));
  Alert tenant = Xid("GPU-1", true, 100, "tenant");
  tenant.labels["job"] = "tenant-exporter";
  Alert exporter = Xid("GPU-2", true, 100, "exporter");
  exporter.labels["job"] = "nvidia-dcgm-exporter";
  auto outcomes = receiver.Receive(Payload({tenant, exporter}));
  ASSERT_TRUE(outcomes.ok()) << outcomes.status().ToString();
  EXPECT_EQ((*outcomes)[0].outcome, "untrusted");
  EXPECT_NE((*outcomes)[0].detail.find("job=\"tenant-exporter\""), std::string::npos)
      << (*outcomes)[0].detail;
  EXPECT_EQ((*outcomes)[1].outcome, "applied");
  EXPECT_EQ(Only().uuid, "GPU-2");
  EXPECT_NE(Exposition().find(R"(dra_controller_alerts_total{outcome="untrusted"} 1)"),
            std::string::npos);
}

// A store that throws (as a library might) is an error answered and counted,
// never an exception out of Receive.
TEST_F(AlertReceiverTest, AnUnexpectedExceptionIsAnErrorCountedPerAlert) {
  class ThrowingStore : public FakeStore {
   public:
    kube::Result<StoredAlerts> Read(const std::string&) override {
      throw std::runtime_error("boom");
    }
  };
  AlertReceiver::Inputs inputs;
  inputs.count_devices = [](const GpuAlert&) { return size_t{1}; };
  inputs.store = std::make_shared<ThrowingStore>();
  inputs.metrics = std::make_shared<AlertMetrics>(registry_);
  AlertReceiver receiver(std::move(inputs));
  auto outcomes = receiver.Receive(Payload({Xid("GPU-1", true, 100), Xid("GPU-2", true, 100)}));
  ASSERT_FALSE(outcomes.ok());
  EXPECT_EQ(outcomes.status().code(), kube::StatusCode::kInternal);
  EXPECT_NE(outcomes.status().message().find("boom"), std::string::npos);
  EXPECT_NE(Exposition().find(R"(dra_controller_alerts_total{outcome="error"} 2)"),
            std::string::npos);
}

}  // namespace
}  // namespace dra::alerts
