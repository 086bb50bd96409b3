// Randomized sequences against the safety rule's reference model
// (HealthSafetyModel): three sources of evidence for four GPUs of one pool
// of eight (a person's DeviceHealths, the Alertmanager source's, and the
// kubelet source fed by Pod status reports, an intruder's among them), all
// four states, preview and hold-off timers, Pods evicted and deleted, a new
// Pod on a device, whole-pool DeviceHealths, controller restarts, and the
// storm guard at 25 % (two devices of the eight). Time starts between two
// seconds and moves in steps that end half a second short of a timer, and a
// restart is a failover too (a new reconciler reads only what the objects
// say), so a preview or hold-off that ends early shows. After every step, once
// everything settled:
//   - every DeviceHealth's rule lies between the model's floor and ceiling
//     (a closed device has NoSchedule at least; NoExecute only where allowed);
//   - the kubelet source keeps its evidence: its object exists, in the state
//     the trusted reports last gave, until it is Healthy past its hold-off;
//   - at every rule write, at most two devices of the pool are NoExecute.
// DRA_HEALTH_MODEL_SEQUENCES (default 2000) and DRA_HEALTH_MODEL_SEED
// (default: random, printed on failure) replay or widen the run.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include "controller/health/DeviceHealthReconciler.h"
#include "controller/health/SourcedHealth.h"
#include "controller/health/SourcedHealthWriter.h"
#include "controller/health/TaintRuleBuilder.h"
#include "controller/kubelet/HealthObjectName.h"
#include "controller/kubelet/KubeletHealthSource.h"
#include "controller/kubelet/ReportVerifier.h"
#include "src/base/FakeClock.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/health/HealthSafetyModel.h"
#include "tests/controller/inventory/InventoryFixtures.h"
#include "tests/support/QuietLog.h"

namespace dra::health {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

using Reported = api::PodView::ReportedHealth;

constexpr int kDevices = 4;  // the GPUs with sources; the pool has 8
constexpr int kPoolSize = 8;
constexpr int kStormCap = 2;  // 25 % of 8
const char* const kStates[] = {"Healthy", "Degraded", "Unhealthy", "Unknown"};

std::string Gpu(int d) { return "gpu-" + std::to_string(d); }
std::string KubeletName(int d) {
  return kubelet::HealthObjectName::For({"gpu.example.com", "node-a", Gpu(d)});
}

// The kubelet source's writes, as the API server would take them.
class SourcedWriter : public SourcedHealthWriter {
 public:
  SourcedWriter(FakeHealthApi& api, kube::Store<api::DeviceHealth>& healths)
      : api_(api), healths_(healths) {}

  kube::Result<SourcedWrite> Apply(const SourcedHealth& h) override {
    auto cached = healths_.Get(h.name);
    if (cached && cached->Label(kSourceLabel) != h.source) return SourcedWrite::kNotOurs;
    json object =
        Health(h.name, h.pool, h.device, std::string(api::HealthStateName(h.state)), ++generation_);
    object["metadata"]["labels"] = {{kSourceLabel, h.source}};
    object["spec"]["reason"] = h.reason;
    object["spec"]["message"] = h.message;
    api_.Put(object);
    return cached ? SourcedWrite::kUpdated : SourcedWrite::kCreated;
  }
  kube::Result<std::optional<api::DeviceHealth>> Get(const std::string&,
                                                     const std::string&) override {
    return std::optional<api::DeviceHealth>();
  }

 private:
  FakeHealthApi& api_;
  kube::Store<api::DeviceHealth>& healths_;
  int64_t generation_ = 1000;
};

struct Timers {
  std::chrono::seconds preview;
  std::chrono::seconds hold_off;
};

class ModelWorld {
 public:
  explicit ModelWorld(Timers timers) : timers_(timers) {
    std::vector<api::Device> gpus;
    for (int i = 0; i < kPoolSize; ++i) gpus.push_back(dra::testing::Gpu(Gpu(i), 80, "m"));
    inventory_.ApplySlice(dra::testing::Slice("node-a-slice", "node-a", gpus));
    for (int d = 0; d < kDevices; ++d) {
      inventory_.ApplyClaim(dra::testing::Claim("ml", "claim-" + std::to_string(d),
                                                {{"node-a", Gpu(d)}}, {Pod(d, 0), Pod(d, 1)}));
    }
    api_->on_apply = [this](const json& rule) { CheckStormAtWrite(rule); };
    Restart();
  }

  // One random step; returns its name for the trace.
  std::string Step(std::mt19937& rng) {
    int d = Pick(rng, kDevices);
    const char* state = kStates[Pick(rng, 4)];
    switch (Pick(rng, 12)) {
      case 0:
      case 1:
        return WritePerson(d, state);
      case 2:
        return Release("person-" + Gpu(d));
      case 3:
      case 4:
        return WriteAlert(d, state);
      case 5:
      case 6:
        return Report(Pod(d, Pick(rng, 2)), d, Reported(Pick(rng, 3)));
      case 7:
        return Evict(d, Pod(d, Pick(rng, 2)), Pick(rng, 2) == 0);
      case 8:
        return Report("intruder", d, Reported(Pick(rng, 3)));
      case 9:
        return Pick(rng, 4) == 0 ? WholePool(Pick(rng, 2) == 0) : Wait(PickWait(rng));
      case 10:
        return Wait(PickWait(rng));
      default:
        Restart();
        return "restart or failover";
    }
  }

  // Reconciles until nothing more is written, then checks the model.
  std::string Settle() {
    for (int round = 0;; ++round) {
      int before = Writes();
      // Deleted objects first: their rules go at once, as the garbage
      // collector deletes them within moments of the object (a deleted
      // DeviceHealth's rule does not count against the storm guard).
      for (const auto& name : names_) {
        if (!healths_.Get(name)) (void)reconciler_->Reconcile(name);
      }
      for (int d = 0; d < kDevices; ++d) (void)kubelet_->Reconcile(DeviceKey(d));
      for (const auto& name : names_) (void)reconciler_->Reconcile(name);
      if (Writes() == before) break;
      if (round == 8) return "no convergence after 8 rounds";
    }
    NoteKubeletRetirements();
    for (const auto& [name, model] : models_) {
      std::string violation = CheckObject(name, model);
      if (!violation.empty()) return violation;
    }
    return violation_;
  }

 private:
  static int Pick(std::mt19937& rng, int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng);
  }
  // Inside and past both timers, and just short of each by half a second,
  // so a timer that ends early (a stored time rounded down) shows.
  static std::chrono::milliseconds PickWait(std::mt19937& rng) {
    const std::chrono::milliseconds waits[] = {5s, 30s, 9500ms, 19500ms};
    return waits[Pick(rng, 4)];
  }
  static std::string Pod(int d, int which) {
    return "pod-" + std::to_string(d) + (which == 0 ? "" : "-b");
  }
  static std::string DeviceKey(int d) { return "gpu.example.com/node-a/" + Gpu(d); }

  void Restart() {
    reconciler_ = std::make_unique<DeviceHealthReconciler>(
        HealthSources{&healths_, &rules_, &inventory_}, api_, [](auto&, auto&, auto&, auto&) {},
        clock_,
        HealthOptions{
            .preview = timers_.preview, .hold_off = timers_.hold_off, .storm_share = 0.25},
        nullptr);
    kubelet::KubeletHealthSource::Inputs inputs;
    inputs.pods = [this] {
      std::vector<std::shared_ptr<const api::PodView>> pods;
      for (const auto& [name, pod] : pods_) pods.push_back(pod);
      return pods;
    };
    inputs.health = [this](const std::string& name) { return healths_.Get(name); };
    inputs.remove = [this](const api::DeviceHealth& h) {
      api_->Erase(h.meta.name);
      return kube::Status::Ok();
    };
    inputs.verify = [this](const api::PodView& pod, const inventory::DeviceKey& device) {
      return kubelet::ReportVerifier(inventory_).Check(pod, device);
    };
    kubelet_ = std::make_unique<kubelet::KubeletHealthSource>(
        std::move(inputs), std::make_shared<SourcedWriter>(*api_, healths_),
        std::make_shared<kubelet::KubeletHealthMetrics>(nullptr));
  }

  std::string WritePerson(int d, const char* state) {
    Write("person-" + Gpu(d), Gpu(d), state, "");
    return std::string("person ") + Gpu(d) + " " + state;
  }

  std::string WriteAlert(int d, const char* state) {
    Write("alert-" + Gpu(d), Gpu(d), state, "alertmanager");
    return std::string("alert ") + Gpu(d) + " " + state;
  }

  std::string WholePool(bool bad) {
    if (!bad) return Release("person-pool");
    Write("person-pool", "", "Unhealthy", "");
    return "whole pool Unhealthy";
  }

  void Write(const std::string& name, const std::string& device, const char* state,
             const std::string& source) {
    Model(name).Observe(state, "", clock_->WallNow(), InForce(name));
    json object = Health(name, "node-a", device, state, ++generation_);
    if (!source.empty()) object["metadata"]["labels"] = {{kSourceLabel, source}};
    api_->Put(object);
    names_.insert(name);
  }

  std::string Release(const std::string& name) {
    api_->Erase(name);
    Model(name).Forget();
    return "release " + name;
  }

  std::string Report(const std::string& pod_name, int d, Reported health) {
    auto pod = std::make_shared<api::PodView>();
    pod->meta.name = pod_name;
    pod->meta.namespace_name = "ml";
    pod->meta.uid = kube::Uid(pod_name + "-uid");
    pod->node_name = kube::InternedString("node-a");
    pod->phase = "Running";
    pod->device_reports.push_back({"main", "gpu", DeviceKey(d), health});
    pods_[pod_name] = pod;
    UpdateKubeletModel(d);
    const char* names[] = {"Healthy", "Unhealthy", "Unknown"};
    return pod_name + " reports " + Gpu(d) + " " + names[static_cast<int>(health)];
  }

  // The Pod is evicted (Failed) or deleted; another Pod's report of the
  // device may be all that is left.
  std::string Evict(int d, const std::string& pod_name, bool deleted) {
    auto it = pods_.find(pod_name);
    if (it == pods_.end()) return "evict " + pod_name + " (not there)";
    if (deleted) {
      pods_.erase(it);
    } else {
      auto failed = std::make_shared<api::PodView>(*it->second);
      failed->phase = "Failed";
      it->second = failed;
    }
    UpdateKubeletModel(d);
    return (deleted ? "delete " : "evict ") + pod_name;
  }

  std::string Wait(std::chrono::milliseconds span) {
    clock_->Step(span);
    return "wait " + std::to_string(span.count()) + "ms";
  }

  // What the trusted, current reports of device d say; the kubelet object
  // follows them, and keeps its state when none is left.
  void UpdateKubeletModel(int d) {
    int rank = -1;  // Healthy 0 < Unknown 1 < Unhealthy 2
    for (const auto& [name, pod] : pods_) {
      if (pod->phase != "Running" || name == "intruder") continue;
      for (const auto& report : pod->device_reports) {
        if (report.resource_id != DeviceKey(d)) continue;
        int r = report.health == Reported::kUnhealthy ? 2 : report.health == Reported::kUnknown;
        rank = std::max(rank, r);
      }
    }
    if (rank < 0) return;
    const char* state = rank == 2 ? "Unhealthy" : rank == 1 ? "Unknown" : "Healthy";
    HealthSafetyModel& model = Model(KubeletName(d));
    if (!model.exists() && rank != 2) return;
    if (model.state() != state) {
      model.Observe(state, "", clock_->WallNow(), InForce(KubeletName(d)));
    }
    names_.insert(KubeletName(d));
  }

  // The kubelet source deletes a Healthy object once its rule is gone.
  void NoteKubeletRetirements() {
    for (int d = 0; d < kDevices; ++d) {
      HealthSafetyModel& model = Model(KubeletName(d));
      if (model.exists() && !healths_.Get(KubeletName(d)) && model.Reopened(clock_->WallNow())) {
        model.Forget();
      }
    }
  }

  std::string CheckObject(const std::string& name, const HealthSafetyModel& model) const {
    if (!model.exists()) return "";
    auto now = clock_->WallNow();
    if (!healths_.Get(name)) {
      return name + " is gone while the model says " + model.state();
    }
    int effect = InForce(name);
    int floor = model.Floor(now), ceiling = model.Ceiling(now);
    if (effect < floor || effect > ceiling) {
      return name + " (" + model.state() + ") has strength " + std::to_string(effect) +
             ", outside [" + std::to_string(floor) + ", " + std::to_string(ceiling) + "]";
    }
    return "";
  }

  // At most kStormCap devices of the pool under NoExecute, counting the rule
  // about to be written.
  void CheckStormAtWrite(const json& incoming) {
    if (!violation_.empty()) return;
    std::set<std::string> evicting;
    auto add = [&](const std::string& device, const std::string& effect) {
      if (effect != "NoExecute") return;
      if (!device.empty()) {
        evicting.insert(device);
        return;
      }
      for (int i = 0; i < kPoolSize; ++i) evicting.insert(Gpu(i));
    };
    std::string incoming_name = incoming["metadata"]["name"];
    for (const auto& rule : rules_.List()) {
      if (rule->meta.name == incoming_name) continue;
      add(rule->selector ? rule->selector->device : "", rule->taint.EffectName());
    }
    add(incoming["spec"]["deviceSelector"].value("device", ""),
        incoming["spec"]["taint"]["effect"]);
    if (static_cast<int>(evicting.size()) > kStormCap) {
      violation_ = "writing " + incoming_name + " puts " + std::to_string(evicting.size()) +
                   " devices under NoExecute, over the cap of " + std::to_string(kStormCap);
    }
  }

  int InForce(const std::string& name) const {
    auto rule = rules_.Get(TaintRuleBuilder::RuleName(name));
    return rule ? HealthSafetyModel::Strength(rule->taint.EffectName())
                : HealthSafetyModel::kNoRule;
  }

  HealthSafetyModel& Model(const std::string& name) {
    return models_.try_emplace(name, timers_.preview, timers_.hold_off).first->second;
  }

  int Writes() const { return api_->applies + api_->deletes + api_->status_writes + api_->puts; }

  Timers timers_;
  // Starts between two seconds: the timers must run from the write's own
  // millisecond, not from a second before it.
  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>(
      kube::Clock::TimePoint{}, std::chrono::system_clock::time_point(1'800'000'000s + 930ms));
  kube::Store<api::DeviceHealth> healths_;
  kube::Store<api::DeviceTaintRule> rules_;
  inventory::Inventory inventory_;
  std::shared_ptr<FakeHealthApi> api_ = std::make_shared<FakeHealthApi>(healths_, rules_);
  std::unique_ptr<DeviceHealthReconciler> reconciler_;
  std::unique_ptr<kubelet::KubeletHealthSource> kubelet_;
  std::map<std::string, std::shared_ptr<const api::PodView>> pods_;
  std::map<std::string, HealthSafetyModel> models_;
  std::set<std::string> names_;  // every DeviceHealth name ever written
  int64_t generation_ = 0;
  std::string violation_;
};

int EnvInt(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : fallback;
}

TEST(HealthModelTest, RandomSequencesKeepTheSafetyRule) {
  dra::testing::QuietLog quiet(spdlog::level::off);
  const int sequences = EnvInt("DRA_HEALTH_MODEL_SEQUENCES", 2000);
  const unsigned seed =
      static_cast<unsigned>(EnvInt("DRA_HEALTH_MODEL_SEED", std::random_device{}()));
  const Timers timers[] = {{0s, 0s}, {10s, 0s}, {0s, 20s}, {10s, 20s}};
  for (int s = 0; s < sequences; ++s) {
    std::mt19937 rng(seed + static_cast<unsigned>(s));
    Timers t = timers[s % 4];
    ModelWorld world(t);
    std::ostringstream trace;
    trace << "seed " << seed << ", sequence " << s << " (preview " << t.preview.count()
          << "s, hold-off " << t.hold_off.count() << "s):";
    for (int step = 0; step < 16; ++step) {
      trace << "\n  " << world.Step(rng);
      std::string violation = world.Settle();
      if (!violation.empty()) FAIL() << trace.str() << "\n=> " << violation;
    }
  }
}

}  // namespace
}  // namespace dra::health
