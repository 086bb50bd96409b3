#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <map>

#include "controller/alerts/AlertReceiver.h"
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
  AlertReceiverTest() {
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
                              "GPU-404"),
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

}  // namespace
}  // namespace dra::alerts
