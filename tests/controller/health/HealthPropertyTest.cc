// The device-health safety rule (HealthSafetyModel) as the reconciler
// carries it out, over every sequence of up to four transitions (spec.state,
// spec.effect, time passing inside and past the preview and hold-off, a
// controller restart), for each combination of preview and hold-off on and
// off: the effect in force never drops below the model's floor (checked at
// every rule write) and, once settled, never exceeds its ceiling.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <sstream>

#include "controller/health/DeviceHealthReconciler.h"
#include "controller/health/TaintRuleBuilder.h"
#include "src/base/FakeClock.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/health/HealthSafetyModel.h"
#include "tests/controller/inventory/InventoryFixtures.h"
#include "tests/support/QuietLog.h"

namespace dra::health {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr int kNoRule = HealthSafetyModel::kNoRule;

int StrengthOf(const std::string& effect) { return HealthSafetyModel::Strength(effect); }

struct Step {
  const char* name;
  const char* state = nullptr;        // set spec.state (and spec.effect) ...
  const char* effect = nullptr;       // ... spec.effect, if any
  std::chrono::milliseconds wait{0};  // or let time pass
  bool restart = false;               // or start a new reconciler
};

// Waits: 5 s is inside a 10 s preview and a 20 s hold-off, 60 s past both;
// 9.5 s and 19.5 s end half a second short of them (time starts between two
// seconds, so a timer run from a rounded-down time ends before them).
const std::vector<Step> kSteps{
    {"Healthy", "Healthy"},
    {"Degraded", "Degraded"},
    {"Degraded+None", "Degraded", "None"},
    {"Unhealthy", "Unhealthy"},
    {"Unhealthy+NoSchedule", "Unhealthy", "NoSchedule"},
    {"Unhealthy+None", "Unhealthy", "None"},
    {"Unknown", "Unknown"},
    {"wait 5s", nullptr, nullptr, 5s},
    {"wait 60s", nullptr, nullptr, 60s},
    {"wait 9.5s", nullptr, nullptr, 9500ms},
    {"wait 19.5s", nullptr, nullptr, 19500ms},
    {"restart", nullptr, nullptr, 0s, true},
};

struct Config {
  std::chrono::seconds preview;
  std::chrono::seconds hold_off;
};

class PolicyWorld {
 public:
  explicit PolicyWorld(Config config) : config_(config), model_(config.preview, config.hold_off) {
    std::vector<api::Device> gpus;
    for (int i = 0; i < 4; ++i) gpus.push_back(testing::Gpu("gpu-" + std::to_string(i), 80, "m"));
    inventory_.ApplySlice(testing::Slice("node-a-slice", "node-a", gpus));
    api_->on_apply = [this](const json& rule) {
      Check(StrengthOf(rule["spec"]["taint"]["effect"]), "a rule write");
    };
    api_->on_delete = [this](const std::string&) { Check(kNoRule, "a rule delete"); };
    Restart();
  }

  // Applies one step and reconciles until nothing more is written. Returns
  // the first violation ("" if none).
  std::string Run(const Step& step) {
    if (step.state != nullptr) {
      model_.Observe(step.state, step.effect ? step.effect : "", clock_->WallNow(), InForce());
      json object = Health("h", "node-a", "gpu-1", step.state, ++generation_);
      if (step.effect) object["spec"]["effect"] = step.effect;
      api_->Put(object);
    }
    if (step.wait.count() > 0) clock_->Step(step.wait);
    if (step.restart) Restart();
    if (!model_.exists()) return violation_;
    for (int i = 0;; ++i) {
      int writes = api_->applies + api_->deletes + api_->status_writes;
      (void)reconciler_->Reconcile("h");
      if (writes == api_->applies + api_->deletes + api_->status_writes) break;
      if (i == 4) return "no convergence after 5 reconciles";
    }
    Check(InForce(), "the settled rule");
    CheckCeiling();
    return violation_;
  }

 private:
  void Restart() {
    reconciler_ = std::make_unique<DeviceHealthReconciler>(
        HealthSources{&healths_, &rules_, &inventory_}, api_, [](auto&, auto&, auto&, auto&) {},
        clock_, HealthOptions{.preview = config_.preview, .hold_off = config_.hold_off}, nullptr);
  }

  int InForce() const {
    auto rule = rules_.Get(TaintRuleBuilder::RuleName("h"));
    if (!rule) return kNoRule;
    return StrengthOf(rule->taint.EffectName());
  }

  // Within the model's bounds: at a rule write only the floor (a write made
  // while settling may pass through a stronger effect that the same settle
  // lifts, e.g. a held rule after its hold-off); once settled, both.
  void Check(int effect, const std::string& where) {
    if (!violation_.empty() || !model_.exists()) return;
    int floor = model_.Floor(clock_->WallNow());
    if (effect < floor) {
      violation_ = where + " has strength " + std::to_string(effect) + ", below the floor " +
                   std::to_string(floor) + " of " + model_.state();
    }
  }

  void CheckCeiling() {
    if (!violation_.empty()) return;
    int effect = InForce();
    int ceiling = model_.Ceiling(clock_->WallNow());
    if (effect > ceiling) {
      violation_ = "the settled rule has strength " + std::to_string(effect) + ", above " +
                   std::to_string(ceiling) + " for " + model_.state();
    }
  }

  Config config_;
  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>(
      kube::Clock::TimePoint{}, std::chrono::system_clock::time_point(1'800'000'000s + 930ms));
  kube::Store<api::DeviceHealth> healths_;
  kube::Store<api::DeviceTaintRule> rules_;
  inventory::Inventory inventory_;
  std::shared_ptr<FakeHealthApi> api_ = std::make_shared<FakeHealthApi>(healths_, rules_);
  std::unique_ptr<DeviceHealthReconciler> reconciler_;
  HealthSafetyModel model_;
  int64_t generation_ = 0;
  std::string violation_;
};

// DRA_HEALTH_PROPERTY_STEPS (1..4, default 4) bounds the sequence length.
int MaxSteps() {
  const char* text = std::getenv("DRA_HEALTH_PROPERTY_STEPS");
  int steps = text ? std::atoi(text) : 4;
  return steps < 1 || steps > 4 ? 4 : steps;
}

TEST(HealthPropertyTest, EffectNeverDropsBelowWhatTheStateDemands) {
  dra::testing::QuietLog quiet(spdlog::level::warn);
  const int length = MaxSteps();
  const std::vector<Config> configs{{0s, 0s}, {10s, 0s}, {0s, 20s}, {10s, 20s}};
  int sequences = 0;
  for (const Config& config : configs) {
    size_t total = 1;
    for (int i = 0; i < length; ++i) total *= kSteps.size();
    // Every sequence of `length` steps; each is checked after every step,
    // so the shorter sequences are covered as its prefixes.
    for (size_t code = 0; code < total; ++code) {
      PolicyWorld world(config);
      std::ostringstream trace;
      trace << "preview " << config.preview.count() << "s, hold-off " << config.hold_off.count()
            << "s:";
      size_t rest = code;
      for (int i = 0; i < length; ++i) {
        const Step& step = kSteps[rest % kSteps.size()];
        rest /= kSteps.size();
        trace << " " << step.name;
        std::string violation = world.Run(step);
        if (!violation.empty()) {
          FAIL() << trace.str() << ": " << violation;
        }
      }
      ++sequences;
    }
  }
  RecordProperty("sequences", sequences);
}

}  // namespace
}  // namespace dra::health
