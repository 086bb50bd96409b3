#include <gtest/gtest.h>

#include "controller/health/RuleFirstWriter.h"
#include "controller/health/TaintRuleBuilder.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::health {
namespace {

using api::HealthState;
using api::TaintEffect;

// The source's own writes: records what was closed when each one came.
class RecordingWriter : public SourcedHealthWriter {
 public:
  explicit RecordingWriter(kube::Store<api::DeviceTaintRule>& rules) : rules_(rules) {}

  kube::Result<SourcedWrite> Apply(const SourcedHealth& health) override {
    auto rule = rules_.Get(TaintRuleBuilder::RuleName(health.name));
    effect_at_write.push_back(rule ? rule->taint.EffectName() : "none");
    if (!fail.ok()) return fail;
    return SourcedWrite::kCreated;
  }
  kube::Result<std::optional<api::DeviceHealth>> Get(const std::string&,
                                                     const std::string&) override {
    return std::optional<api::DeviceHealth>();
  }

  std::vector<std::string> effect_at_write;  // the rule's effect when each write came
  kube::Status fail = kube::Status::Ok();    // what the DeviceHealth write answers

 private:
  kube::Store<api::DeviceTaintRule>& rules_;
};

class RuleFirstWriterTest : public ::testing::Test {
 protected:
  RuleFirstWriterTest() {
    api::Device gpu = testing::Gpu("gpu-1", 80, "m");
    gpu.attributes.emplace_back("uuid", api::AttributeValue(std::string("GPU-1")));
    inventory_.ApplySlice(testing::Slice("node-a-slice", "node-a", {gpu}));
  }

  std::unique_ptr<RuleFirstWriter> Make(bool dry_run = false, bool served = true) {
    RuleFirstWriter::Inputs inputs;
    inputs.inner = inner_;
    inputs.rules = api_;
    inputs.healths = &healths_;
    inputs.rule_cache = served ? &rules_ : nullptr;
    inputs.inventory = &inventory_;
    inputs.dry_run = dry_run;
    return std::make_unique<RuleFirstWriter>(std::move(inputs));
  }

  static SourcedHealth ByUuid(HealthState state) {
    SourcedHealth h;
    h.name = "alert-gpu-1";
    h.source = "alertmanager";
    h.uuid = "GPU-1";
    h.state = state;
    h.reason = "GPUXidCritical";
    return h;
  }

  kube::Store<api::DeviceHealth> healths_;
  kube::Store<api::DeviceTaintRule> rules_;
  inventory::Inventory inventory_;
  std::shared_ptr<FakeHealthApi> api_ = std::make_shared<FakeHealthApi>(healths_, rules_);
  std::shared_ptr<RecordingWriter> inner_ = std::make_shared<RecordingWriter>(rules_);
};

// Issue 55: the rule came 5-50 ms after the DeviceHealth that asked for it,
// and a Pod placed in between was bound to the sick device.
TEST_F(RuleFirstWriterTest, AnUnhealthyReportIsWrittenOnlyOnceTheDeviceIsClosed) {
  auto writer = Make();
  ASSERT_TRUE(writer->Apply(ByUuid(HealthState::kUnhealthy)).ok());
  EXPECT_EQ(inner_->effect_at_write, std::vector<std::string>{"NoSchedule"});
  const auto& rule = api_->last_rule;
  EXPECT_EQ(rule["metadata"]["name"], "devicehealth-alert-gpu-1");
  EXPECT_EQ(rule["metadata"]["labels"][kOwnerLabel], "alert-gpu-1");
  EXPECT_FALSE(rule["metadata"].contains("ownerReferences")) << "no uid before the object exists";
  EXPECT_EQ(rule["spec"]["deviceSelector"]["pool"], "node-a");
  EXPECT_EQ(rule["spec"]["deviceSelector"]["device"], "gpu-1");
  EXPECT_EQ(rule["spec"]["taint"]["effect"], "NoSchedule");
  EXPECT_EQ(rule["spec"]["taint"]["value"], "GPUXidCritical");
}

TEST_F(RuleFirstWriterTest, AnExistingObjectsRuleNamesItsOwner) {
  nlohmann::json existing = Health("alert-gpu-1", "node-a", "gpu-1", "Healthy");
  existing["metadata"]["labels"] = {{kSourceLabel, "alertmanager"}};
  api_->Put(existing);
  ASSERT_TRUE(Make()->Apply(ByUuid(HealthState::kDegraded)).ok());
  EXPECT_EQ(api_->last_rule["metadata"]["ownerReferences"][0]["uid"], "alert-gpu-1-uid");
}

TEST_F(RuleFirstWriterTest, NothingIsWrittenAheadWhereNoRuleIsDue) {
  ASSERT_TRUE(Make()->Apply(ByUuid(HealthState::kHealthy)).ok());
  ASSERT_TRUE(Make()->Apply(ByUuid(HealthState::kUnknown)).ok());
  ASSERT_TRUE(Make(/*dry_run=*/true)->Apply(ByUuid(HealthState::kUnhealthy)).ok());
  ASSERT_TRUE(Make(false, /*served=*/false)->Apply(ByUuid(HealthState::kUnhealthy)).ok());
  SourcedHealth unknown_gpu = ByUuid(HealthState::kUnhealthy);
  unknown_gpu.uuid = "GPU-404";
  ASSERT_TRUE(Make()->Apply(unknown_gpu).ok());
  EXPECT_EQ(api_->applies, 0);
  EXPECT_EQ(inner_->effect_at_write.size(), 5u) << "the DeviceHealth is written all the same";
}

TEST_F(RuleFirstWriterTest, AClosingRuleInForceIsNeitherRewrittenNorWeakened) {
  api_->Put(Health("alert-gpu-1", "node-a", "gpu-1", "Unhealthy"));
  auto target =
      ProjectJson<api::DeviceHealth>(Health("alert-gpu-1", "node-a", "gpu-1", "Unhealthy"));
  ASSERT_TRUE(api_->ApplyRule(TaintRuleBuilder::Build(*target, TaintEffect::kNoExecute)).ok());
  ASSERT_TRUE(Make()->Apply(ByUuid(HealthState::kUnhealthy)).ok());
  EXPECT_EQ(api_->applies, 1);
  EXPECT_EQ(inner_->effect_at_write, std::vector<std::string>{"NoExecute"});
}

TEST_F(RuleFirstWriterTest, APersonsObjectOrAForeignRuleIsLeftAlone) {
  api_->Put(Health("alert-gpu-1", "node-a", "gpu-1", "Healthy"));  // no source label
  ASSERT_TRUE(Make()->Apply(ByUuid(HealthState::kUnhealthy)).ok());
  EXPECT_EQ(api_->applies, 0);
}

// A DeviceHealth that is not written (denied, the API down) leaves no rule
// behind: written ahead, it has no owner to be garbage-collected with.
TEST_F(RuleFirstWriterTest, ARuleWrittenAheadOfAFailedWriteIsWithdrawn) {
  inner_->fail = kube::Status(kube::StatusCode::kForbidden, "devicehealths forbidden");
  EXPECT_FALSE(Make()->Apply(ByUuid(HealthState::kUnhealthy)).ok());
  EXPECT_EQ(inner_->effect_at_write, std::vector<std::string>{"NoSchedule"});
  EXPECT_EQ(api_->deletes, 1);
  EXPECT_EQ(rules_.Get("devicehealth-alert-gpu-1"), nullptr);
}

}  // namespace
}  // namespace dra::health
