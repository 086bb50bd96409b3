// Eviction and reopening on the real node (`make cluster-up NODE=1`, its env
// sourced): per run, a Pod with a claim on the node's gpu-0 runs; the driver
// reports gpu-0 Unhealthy and the time is taken until the DeviceTaintRule
// (NoExecute) exists, the Pod's container no longer runs in containerd, and
// the Pod is gone. Then a diagnostic Pod that tolerates the taint runs on
// gpu-0, the driver reports it Healthy, and the time is taken until the
// device is open again (the kubelet DeviceHealth deleted with its rule; the
// controller runs with --health-hold-off=0s, so this is the pipeline alone).
// The real dra-controller binary runs in between. Reports p50/p99/max in
// seconds as counters. DRA_NODE_BENCH_RUNS (default 20) sets the runs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <thread>

#include "tests/support/RealNode.h"
#include "tests/support/RunningController.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TestCluster.h"
#include "tests/support/WaitFor.h"

namespace {

using namespace std::chrono_literals;
using dra::testing::RealNode;
using dra::testing::RunningController;
using dra::testing::Subprocess;
using dra::testing::TestCluster;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kNamespace = "node-bench";
constexpr const char* kClass = "node-bench-gpu.example.com";
constexpr const char* kDevice = "gpu-0";

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  size_t index = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

class NodeBench {
 public:
  NodeBench(TestCluster cluster, RealNode node) : cluster_(std::move(cluster)), node_(node) {}

  kube::Status Prepare() {
    std::string uuid;
    auto devices = node_.Devices();
    if (!devices.ok()) return devices.status();
    for (const auto& d : *devices) {
      if (d.value("device", "") == kDevice) uuid = d.value("uuid", "");
    }
    selector_ = "device.attributes[\"" + node_.driver() + "\"].uuid == \"" + uuid + "\"";
    json device_class = {
        {"apiVersion", "resource.k8s.io/v1"},
        {"kind", "DeviceClass"},
        {"metadata", {{"name", kClass}}},
        {"spec",
         {{"selectors",
           json::array(
               {{{"cel", {{"expression", "device.driver == \"" + node_.driver() + "\""}}}}})}}}};
    KUBE_RETURN_IF_ERROR(cluster_.InstallDeviceHealthCrd());
    KUBE_RETURN_IF_ERROR(cluster_.Apply(device_class.dump()));
    (void)cluster_.Kubectl({"create", "namespace", kNamespace});
    RunningController::Options options;
    options.kubeconfig = cluster_.kubeconfig();
    options.args = {"--health-preview=0s", "--health-hold-off=0s"};
    options.wait_for = {"started devicehealth", "inventory synced"};
    auto started = RunningController::Start(options);
    if (!started.ok()) return started.status();
    controller_ = std::move(*started);
    return kube::Status::Ok();
  }

  void CleanUp() {
    if (controller_) controller_->Stop();
    (void)node_.SetHealth(kDevice, "Healthy");
    (void)cluster_.Kubectl({"delete", "namespace", kNamespace, "--wait=true"});
    (void)cluster_.Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
  }

  // One run; appends its times.
  kube::Status Run(int i) {
    std::string n = std::to_string(i);
    KUBE_RETURN_IF_ERROR(cluster_.Create(Claim("work-" + n, false)));
    KUBE_RETURN_IF_ERROR(cluster_.Create(Pod("work-" + n)));
    KUBE_RETURN_IF_ERROR(dra::testing::WaitFor("Pod work Running and reported", 120s, [&] {
      json pod = Get("pod", "work-" + n);
      return pod.value("/status/phase"_json_pointer, std::string()) == "Running" &&
             pod.dump().find("allocatedResourcesStatus") != std::string::npos;
    }));
    auto marked = Clock::now();
    KUBE_RETURN_IF_ERROR(node_.SetHealth(kDevice, "Unhealthy", "Xid 79 (bench)"));
    double rule = -1;
    double stopped = -1;
    KUBE_RETURN_IF_ERROR(dra::testing::WaitFor("the container stopped and the Pod gone", 90s, [&] {
      if (rule < 0 && RuleExists()) rule = Since(marked);
      if (stopped < 0 && !Running()) stopped = Since(marked);
      return stopped >= 0 && Get("pod", "work-" + n).is_null();
    }));
    to_rule_.push_back(rule < 0 ? Since(marked) : rule);
    to_stopped_.push_back(stopped);
    to_gone_.push_back(Since(marked));

    KUBE_RETURN_IF_ERROR(cluster_.Create(Claim("diag-" + n, true)));
    KUBE_RETURN_IF_ERROR(cluster_.Create(Pod("diag-" + n)));
    KUBE_RETURN_IF_ERROR(dra::testing::WaitFor("Pod diag Running", 120s, [&] {
      return Get("pod", "diag-" + n).value("/status/phase"_json_pointer, std::string()) ==
             "Running";
    }));
    auto healed = Clock::now();
    KUBE_RETURN_IF_ERROR(node_.SetHealth(kDevice, "Healthy"));
    KUBE_RETURN_IF_ERROR(dra::testing::WaitFor("the device reopened", 90s,
                                               [&] { return !RuleExists() && !HealthExists(); }));
    to_reopened_.push_back(Since(healed));
    // The next run's claim gets gpu-0 once these are gone.
    auto deleted = cluster_.Kubectl({"delete", "pod/diag-" + n, "resourceclaim/diag-" + n,
                                     "resourceclaim/work-" + n, "-n", kNamespace});
    return deleted.ok() ? kube::Status::Ok() : deleted.status();
  }

  const std::vector<double>& to_rule() const { return to_rule_; }
  const std::vector<double>& to_stopped() const { return to_stopped_; }
  const std::vector<double>& to_gone() const { return to_gone_; }
  const std::vector<double>& to_reopened() const { return to_reopened_; }

 private:
  std::string Claim(const std::string& name, bool tolerate) const {
    json exactly = {{"deviceClassName", kClass},
                    {"selectors", json::array({{{"cel", {{"expression", selector_}}}}})}};
    if (tolerate) {
      exactly["tolerations"] = json::array({{{"key", "dra-controller.dev/device-health"},
                                             {"operator", "Exists"},
                                             {"effect", "NoExecute"}}});
    }
    json request = {{"name", "gpu"}, {"exactly", exactly}};
    return json{{"apiVersion", "resource.k8s.io/v1"},
                {"kind", "ResourceClaim"},
                {"metadata", {{"name", name}, {"namespace", kNamespace}}},
                {"spec", {{"devices", {{"requests", json::array({request})}}}}}}
        .dump();
  }

  std::string Pod(const std::string& name) const {
    json container = {{"name", "main"},
                      {"image", "docker.io/local/busybox:1"},
                      {"imagePullPolicy", "Never"},
                      {"resources", {{"claims", json::array({{{"name", "gpu"}}})}}}};
    json spec = {{"automountServiceAccountToken", false},
                 {"terminationGracePeriodSeconds", 5},
                 {"nodeSelector", {{"kubernetes.io/hostname", node_.name()}}},
                 {"containers", json::array({container})},
                 {"resourceClaims", json::array({{{"name", "gpu"}, {"resourceClaimName", name}}})}};
    return json{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", kNamespace}}},
                {"spec", spec}}
        .dump();
  }

  json Get(const std::string& kind, const std::string& name) {
    auto out = cluster_.GetJson({"get", kind, name, "-n", kNamespace, "--ignore-not-found"});
    return out.ok() && out->is_object() ? *out : json();
  }

  bool RuleExists() {
    auto out = cluster_.Kubectl({"get", "devicetaintrules", "-l",
                                 "app.kubernetes.io/managed-by=dra-controller", "-o", "name"});
    return out.ok() && out->out.find("devicetaintrule") != std::string::npos;
  }

  bool HealthExists() {
    auto out = cluster_.Kubectl(
        {"get", "devicehealths", "-l", "dra-controller.dev/source=kubelet", "-o", "name"});
    return out.ok() && out->out.find("devicehealth") != std::string::npos;
  }

  // Whether containerd still runs a container of the node's Pods.
  bool Running() {
    const char* socket = std::getenv("DRA_NODE_CONTAINERD_SOCKET");
    if (socket == nullptr) return false;
    auto out = Subprocess::Run({"ctr", "--address", socket, "-n", "k8s.io", "tasks", "ls"});
    if (!out.ok()) return true;
    std::istringstream lines(out->out);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("RUNNING") != std::string::npos) return true;
    }
    return false;
  }

  TestCluster cluster_;
  RealNode node_;
  std::string selector_;
  std::unique_ptr<RunningController> controller_;
  std::vector<double> to_rule_, to_stopped_, to_gone_, to_reopened_;
};

void Report(benchmark::State& state, const std::string& name, const std::vector<double>& values) {
  state.counters[name + "_p50_s"] = Percentile(values, 0.5);
  state.counters[name + "_p99_s"] = Percentile(values, 0.99);
  state.counters[name + "_max_s"] = *std::max_element(values.begin(), values.end());
}

void BM_RealNodeEviction(benchmark::State& state) {
  auto cluster = TestCluster::FromEnvironment();
  auto node = RealNode::FromEnvironment();
  if (!cluster.ok() || !node.ok()) {
    state.SkipWithError("needs `make cluster-up NODE=1` and its env sourced");
    return;
  }
  const char* runs_env = std::getenv("DRA_NODE_BENCH_RUNS");
  int runs = runs_env != nullptr ? std::max(1, std::atoi(runs_env)) : 20;
  NodeBench bench(std::move(*cluster), *node);
  for (auto _ : state) {
    kube::Status prepared = bench.Prepare();
    for (int i = 0; prepared.ok() && i < runs; ++i) {
      kube::Status run = bench.Run(i);
      if (!run.ok()) {
        bench.CleanUp();
        state.SkipWithError(("run " + std::to_string(i) + ": " + run.ToString()).c_str());
        return;
      }
      std::cerr << "run " << i << ": stopped " << bench.to_stopped().back() << " s, reopened "
                << bench.to_reopened().back() << " s\n";
    }
    bench.CleanUp();
    if (!prepared.ok()) {
      state.SkipWithError(prepared.ToString().c_str());
      return;
    }
  }
  Report(state, "unhealthy_to_rule", bench.to_rule());
  Report(state, "unhealthy_to_stopped", bench.to_stopped());
  Report(state, "unhealthy_to_pod_gone", bench.to_gone());
  Report(state, "healthy_to_reopened", bench.to_reopened());
  state.counters["runs"] = static_cast<double>(bench.to_stopped().size());
}
BENCHMARK(BM_RealNodeEviction)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
