// Device health latency on the local control plane: a DeviceHealth change
// (its spec.state flipped between Degraded and Unknown, so the taint effect
// flips between NoSchedule and None) until the DeviceTaintRule with the new
// effect arrives through a watch, over 200 changes, with the real
// dra-controller binary in between. Needs the env of
// `hack/control-plane/cluster.sh up` (KUBECONFIG, DRA_KUBECTL) and reports
// p50/p99/max in milliseconds as counters.
#include <benchmark/benchmark.h>
#include <signal.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <mutex>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/health/RestHealthWriter.h"
#include "src/cache/Informer.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/TestCluster.h"
#include "tests/support/WaitFor.h"

namespace {

using namespace std::chrono_literals;
using dra::api::DeviceTaintRule;
using dra::api::TaintEffect;
using dra::testing::BackgroundProcess;
using dra::testing::TestCluster;

constexpr int kChanges = 200;
constexpr const char* kName = "bench-latency";
constexpr const char* kRule = "devicehealth-bench-latency";

// Remembers when the rule last arrived through the watch with each effect.
class RuleWatch : public kube::EventHandler<DeviceTaintRule> {
 public:
  void OnAdd(const Ptr& rule) override { Seen(rule); }
  void OnUpdate(const Ptr&, const Ptr& rule) override { Seen(rule); }
  void OnDelete(const Ptr&) override {}

  // Waits for a rule version newer than `after` with `effect`; its arrival time.
  std::optional<std::chrono::steady_clock::time_point> WaitFor(TaintEffect effect, uint64_t after) {
    std::unique_lock lock(mu_);
    bool ok = cv_.wait_for(lock, 10s, [&] { return version_ > after && effect_ == effect; });
    return ok ? std::optional(at_) : std::nullopt;
  }
  uint64_t version() {
    std::lock_guard lock(mu_);
    return version_;
  }

 private:
  void Seen(const Ptr& rule) {
    if (rule->meta.name != kRule) return;
    std::lock_guard lock(mu_);
    effect_ = rule->taint.effect;
    at_ = std::chrono::steady_clock::now();
    ++version_;
    cv_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  TaintEffect effect_ = TaintEffect::kUnknown;
  std::chrono::steady_clock::time_point at_;
  uint64_t version_ = 0;
};

// Bench programs get no build paths: the controller is next to tests/, the
// CRD in the source tree the build directory sits in (build/ by convention).
std::string BuildDir() {
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "build" : exe.parent_path().parent_path().string();
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

void BM_DeviceHealthToRule(benchmark::State& state) {
  auto cluster = TestCluster::FromEnvironment();
  if (!cluster.ok()) return state.SkipWithError(cluster.status().ToString().c_str());
  auto client = cluster->NewRestClient();
  if (!client.ok()) return state.SkipWithError(client.status().ToString().c_str());
  (void)cluster->Kubectl(
      {"apply", "-f", BuildDir() + "/../crds/devicehealths.dra-controller.dev.yaml"});
  (void)cluster->Kubectl({"wait", "--for=condition=Established", "--timeout=30s",
                          "crd/devicehealths.dra-controller.dev"});
  (void)cluster->Kubectl({"delete", "devicehealth", kName, "--ignore-not-found", "--wait=true"});
  auto controller = BackgroundProcess::Start({BuildDir() + "/dra-controller", "run", "--kubeconfig",
                                              cluster->kubeconfig(), "--metrics-bind-address", "0",
                                              "--health-probe-bind-address", "0"});
  if (!controller.ok()) return state.SkipWithError(controller.status().ToString().c_str());
  auto up = dra::testing::WaitFor("device health to start", 60s, [&] {
    return (*controller)->Output().find("started devicehealth") != std::string::npos;
  });
  if (!up.ok()) return state.SkipWithError(up.ToString().c_str());

  kube::Informer<DeviceTaintRule> rules(
      *client, dra::api::DeviceTaintRule::kResource,
      [](simdjson::dom::element e) { return DeviceTaintRule::FromJson(e); });
  auto watch = std::make_shared<RuleWatch>();
  rules.AddHandler(watch);
  rules.Start();
  rules.WaitForSync(30s);

  const auto& healths = dra::api::DeviceHealth::kResource;
  nlohmann::json object = {{"apiVersion", "dra-controller.dev/v1alpha1"},
                           {"kind", "DeviceHealth"},
                           {"metadata", {{"name", kName}}},
                           {"spec",
                            {{"driver", "gpu.example.com"},
                             {"pool", "bench-pool"},
                             {"device", "gpu-0"},
                             {"state", "Unknown"}}}};
  std::vector<double> millis;
  for (auto _ : state) {
    millis.clear();
    auto created = (*client)->Create(healths, "", object);
    if (!created.ok()) return state.SkipWithError(created.status().ToString().c_str());
    if (!watch->WaitFor(TaintEffect::kNone, 0)) return state.SkipWithError("no first rule");
    for (int i = 0; i < kChanges; ++i) {
      bool degraded = i % 2 == 0;
      uint64_t before = watch->version();
      std::string patch =
          std::string(R"({"spec":{"state":")") + (degraded ? "Degraded" : "Unknown") + "\"}}";
      auto start = std::chrono::steady_clock::now();
      auto patched = (*client)->Patch(healths.ItemPath("", kName), kube::PatchType::kMerge, patch);
      if (!patched.ok()) return state.SkipWithError(patched.status().ToString().c_str());
      auto seen = watch->WaitFor(degraded ? TaintEffect::kNoSchedule : TaintEffect::kNone, before);
      if (!seen) return state.SkipWithError("rule change not seen within 10 s");
      millis.push_back(std::chrono::duration<double, std::milli>(*seen - start).count());
    }
  }
  state.counters["changes"] = static_cast<double>(millis.size());
  state.counters["p50_ms"] = Percentile(millis, 0.50);
  state.counters["p99_ms"] = Percentile(millis, 0.99);
  state.counters["max_ms"] = Percentile(millis, 1.0);
  rules.Stop();
  (void)(*client)->Delete(healths.ItemPath("", kName));
  (*controller)->Signal(SIGTERM);
  (*controller)->Wait(15s);
}

BENCHMARK(BM_DeviceHealthToRule)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
