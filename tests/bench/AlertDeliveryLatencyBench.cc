// Alert delivery latency on the local control plane: an Alertmanager webhook
// payload (version 4, one firing alert naming a fake GPU by its UUID) POSTed
// to `dra-controller run --alertmanager-webhook-bind-address` with a
// service-account token, until the DeviceTaintRule for that GPU arrives
// through a watch; then the resolved alert until the rule is gone (preview
// and hold-off off). 100 alerts over 16 GPUs (2 fake nodes × 8), the real
// binary in between. Needs the env of `hack/control-plane/cluster.sh up`
// (KUBECONFIG, DRA_KUBECTL); reports p50/p99/max in milliseconds as counters:
// firing → rule visible, the POST's answer, and resolved → rule gone.
#include <benchmark/benchmark.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <set>

#include "controller/api/DeviceTaintRule.h"
#include "controller/health/RestHealthWriter.h"
#include "src/cache/Informer.h"
#include "src/http/HttpTransport.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/TestCluster.h"
#include "tests/support/WaitFor.h"

namespace {

using namespace std::chrono_literals;
using dra::api::DeviceTaintRule;
using dra::testing::BackgroundProcess;
using dra::testing::TestCluster;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kAlerts = 100;
constexpr const char* kDriver = "gpu.example.com";
// Namespace, ServiceAccount's ClusterRole and binding: one per run, so a run
// right after another does not meet its namespace still terminating.
const std::string kNamespace = "alert-latency-bench-" + std::to_string(getpid());
const std::string& kRole = kNamespace;
const std::vector<std::string> kFleet{"bench-am-a:8:80Gi:gpu-bench-am",
                                      "bench-am-b:8:80Gi:gpu-bench-am"};

// When a rule for each pool/device last appeared and disappeared.
class RuleWatch : public kube::EventHandler<DeviceTaintRule> {
 public:
  void OnAdd(const Ptr& rule) override { Seen(rule, true); }
  void OnUpdate(const Ptr&, const Ptr& rule) override { Seen(rule, true); }
  void OnDelete(const Ptr& rule) override { Seen(rule, false); }

  // Waits until the device's rule is present (or gone); when it became so.
  std::optional<Clock::time_point> WaitFor(const std::string& key, bool present) {
    std::unique_lock lock(mu_);
    bool ok = cv_.wait_for(lock, 10s, [&] { return present_.contains(key) == present; });
    if (!ok) return std::nullopt;
    auto it = changed_at_.find(key);
    return it == changed_at_.end() ? Clock::now() : it->second;
  }

 private:
  void Seen(const Ptr& rule, bool present) {
    if (!rule->selector || rule->selector->device.empty()) return;
    std::string key = rule->selector->pool + "/" + rule->selector->device;
    std::lock_guard lock(mu_);
    if (present_.contains(key) != present) changed_at_[key] = Clock::now();
    if (present) {
      present_.insert(key);
    } else {
      present_.erase(key);
    }
    cv_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::string> present_;
  std::map<std::string, Clock::time_point> changed_at_;
};

// Bench programs get no build paths: the controller is next to tests/, the
// CRD in the source tree the build directory sits in (build/ by convention).
std::string BuildDir() {
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "build" : exe.parent_path().parent_path().string();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

double Millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct Gpu {
  std::string pool, device, uuid, node;
  int index = 0;
};

std::vector<Gpu> FleetGpus(const TestCluster& cluster) {
  std::vector<Gpu> gpus;
  auto slices = cluster.GetJson({"get", "resourceslices"});
  if (!slices.ok()) return gpus;
  for (const auto& slice : (*slices)["items"]) {
    std::string node = slice["spec"].value("nodeName", "");
    if (slice["spec"].value("driver", "") != kDriver || !node.starts_with("bench-am-")) continue;
    for (const auto& device : slice["spec"]["devices"]) {
      gpus.push_back({slice["spec"]["pool"].value("name", ""), device.value("name", ""),
                      device.value("/attributes/uuid/string"_json_pointer, std::string()), node,
                      device.value("/attributes/index/int"_json_pointer, 0)});
    }
  }
  return gpus;
}

std::string Payload(const Gpu& gpu, const std::string& status, int n) {
  json labels = {{"alertname", "GPUFellOffTheBus"},  {"dra_controller", "device-health"},
                 {"severity", "critical"},           {"UUID", gpu.uuid},
                 {"gpu", std::to_string(gpu.index)}, {"Hostname", gpu.node}};
  json alert = {{"status", status},
                {"labels", labels},
                {"annotations", {{"summary", "benchmark alert " + std::to_string(n)}}},
                {"startsAt", "2026-12-05T08:00:00Z"},
                {"endsAt", status == "resolved" ? "2026-12-05T08:05:00Z" : "0001-01-01T00:00:00Z"},
                {"generatorURL", ""},
                {"fingerprint", "bench" + std::to_string(n)}};
  return json{{"version", "4"},
              {"groupKey", "bench"},
              {"truncatedAlerts", 0},
              {"status", status},
              {"receiver", "dra-controller"},
              {"groupLabels", json::object()},
              {"commonLabels", labels},
              {"commonAnnotations", json::object()},
              {"externalURL", "http://alertmanager.example"},
              {"alerts", json::array({alert})}}
      .dump();
}

// The sender's account, allowed to post /alertmanager; its token.
kube::Result<std::string> SenderToken(const TestCluster& cluster) {
  (void)cluster.Kubectl({"create", "namespace", kNamespace});
  (void)cluster.Kubectl({"create", "serviceaccount", "sender", "-n", kNamespace});
  (void)cluster.Kubectl(
      {"create", "clusterrole", kRole, "--verb=post", "--non-resource-url=/alertmanager"});
  (void)cluster.Kubectl({"create", "clusterrolebinding", kRole, "--clusterrole", kRole,
                         "--serviceaccount", kNamespace + ":sender"});
  auto token = cluster.Kubectl({"create", "token", "sender", "-n", kNamespace});
  if (!token.ok()) return token.status();
  std::string out = token->out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

class Bench {
 public:
  explicit Bench(benchmark::State& state) : state_(state) {}

  bool Run() {
    auto cluster = TestCluster::FromEnvironment();
    if (!cluster.ok()) return Fail(cluster.status().ToString());
    cluster_.emplace(std::move(*cluster));
    auto client = cluster_->NewRestClient();
    if (!client.ok()) return Fail(client.status().ToString());
    (void)cluster_->InstallDeviceHealthCrd();
    auto fleet = dra::testing::ApplyFakeFleet(*cluster_, kFleet);
    if (!fleet.ok()) return Fail(fleet.ToString());
    gpus_ = FleetGpus(*cluster_);
    if (gpus_.size() != 16) return Fail("want 16 fleet GPUs, got " + std::to_string(gpus_.size()));
    auto token = SenderToken(*cluster_);
    if (!token.ok()) return Fail(token.status().ToString());
    token_ = *token;
    if (!StartController()) return false;

    kube::Informer<DeviceTaintRule> rules(
        *client, dra::api::DeviceTaintRule::kResource,
        [](simdjson::dom::element e) { return DeviceTaintRule::FromJson(e); });
    auto watch = std::make_shared<RuleWatch>();
    rules.AddHandler(watch);
    rules.Start();
    rules.WaitForSync(30s);
    bool ok = Measure(*watch);
    rules.Stop();
    return ok;
  }

  ~Bench() {
    if (controller_) controller_->Signal(SIGTERM), (void)controller_->Wait(15s);
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l",
                             "dra-controller.dev/source=alertmanager", "--wait=false"});
    (void)cluster_->Kubectl(
        {"delete", "clusterrolebinding,clusterrole", kRole, "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "namespace", kNamespace, "--wait=false"});
    dra::testing::RemoveFakeFleet(*cluster_, kFleet);
  }

 private:
  bool Fail(const std::string& why) {
    state_.SkipWithError(why.c_str());
    return false;
  }

  bool StartController() {
    auto process = BackgroundProcess::Start({BuildDir() + "/dra-controller", "run", "--kubeconfig",
                                             cluster_->kubeconfig(), "--metrics-bind-address", "0",
                                             "--health-probe-bind-address", "0",
                                             "--alertmanager-webhook-bind-address", "127.0.0.1:0",
                                             "--health-preview", "0s", "--health-hold-off", "0s"});
    if (!process.ok()) return Fail(process.status().ToString());
    controller_ = std::move(*process);
    static const std::regex kPort(R"(serving the Alertmanager webhook on \S+ .*port=(\d+))");
    std::smatch port;
    std::string out;
    auto serving = dra::testing::WaitFor("the webhook to listen", 60s, [&] {
      out = controller_->Output();
      return std::regex_search(out, port, kPort);
    });
    if (!serving.ok()) return Fail(serving.ToString() + "\n" + out);
    port_ = std::stoi(port[1]);
    kube::RestConfig config;
    config.server = "https://127.0.0.1:" + std::to_string(port_);
    config.insecure_skip_tls_verify = true;  // the controller's self-signed certificate
    config.request_timeout = 10s;
    auto transport = kube::HttpTransport::Create(config);
    if (!transport.ok()) return Fail(transport.status().ToString());
    transport_ = std::move(*transport);
    // Up, synced, and the sender's RBAC visible to the authorizer.
    auto up = dra::testing::WaitFor("the webhook to accept the sender", 60s, [&] {
      std::string out = controller_->Output();
      return out.find("started devicehealth") != std::string::npos &&
             out.find("inventory synced") != std::string::npos &&
             Authorized(Post(R"({"version":"4","status":"firing","alerts":[]})"));
    });
    if (!up.ok()) return Fail(up.ToString() + "\n" + controller_->Output());
    return true;
  }

  // Past authentication and authorization (an empty alert list may be 400).
  static bool Authorized(int status) { return status != 0 && status != 401 && status != 403; }

  // As Alertmanager does: a 503 (the API server took no write) is retried.
  int Deliver(const std::string& body) {
    int status = Post(body);
    for (int retry = 0; status == 503 && retry < 5; ++retry) {
      ++retried_;
      std::string out = controller_->Output();
      auto at = out.rfind("answering 503");
      if (at != std::string::npos && last_503_.empty()) {
        last_503_ = out.substr(out.rfind('\n', at) + 1, out.find('\n', at) - out.rfind('\n', at));
      }
      status = Post(body);
    }
    return status;
  }

  int Post(const std::string& body) {
    kube::HttpRequest request;
    request.method = "POST";
    request.path = "/alertmanager";
    request.body = body;
    request.content_type = "application/json";
    request.headers.emplace_back("Authorization", "Bearer " + token_);
    auto reply = transport_->Send(request);
    return reply.ok() ? reply->status : 0;
  }

  bool Measure(RuleWatch& watch) {
    std::vector<double> visible, answered, lifted;
    for (auto _ : state_) {
      for (int n = 0; n < kAlerts; ++n) {
        const Gpu& gpu = gpus_[static_cast<size_t>(n) % gpus_.size()];
        std::string key = gpu.pool + "/" + gpu.device;
        auto start = Clock::now();
        int status = Deliver(Payload(gpu, "firing", n));
        answered.push_back(Millis(Clock::now() - start));
        if (status != 200) return Fail("firing alert answered " + std::to_string(status));
        auto seen = watch.WaitFor(key, true);
        if (!seen) return Fail("no rule for " + key + " within 10 s");
        visible.push_back(Millis(*seen - start));
        start = Clock::now();
        status = Deliver(Payload(gpu, "resolved", n));
        if (status != 200) return Fail("resolved alert answered " + std::to_string(status));
        auto gone = watch.WaitFor(key, false);
        if (!gone) return Fail("the rule for " + key + " stayed 10 s after resolving");
        lifted.push_back(Millis(*gone - start));
      }
    }
    state_.counters["alerts"] = static_cast<double>(visible.size());
    state_.counters["retried_503"] = retried_;
    if (!last_503_.empty()) std::fprintf(stderr, "a 503: %s", last_503_.c_str());
    state_.counters["visible_p50_ms"] = Percentile(visible, 0.50);
    state_.counters["visible_p99_ms"] = Percentile(visible, 0.99);
    state_.counters["visible_max_ms"] = Percentile(visible, 1.0);
    state_.counters["answer_p50_ms"] = Percentile(answered, 0.50);
    state_.counters["answer_p99_ms"] = Percentile(answered, 0.99);
    state_.counters["lifted_p50_ms"] = Percentile(lifted, 0.50);
    state_.counters["lifted_p99_ms"] = Percentile(lifted, 0.99);
    return true;
  }

  benchmark::State& state_;
  std::optional<TestCluster> cluster_;
  std::vector<Gpu> gpus_;
  std::string token_;
  int port_ = 0;
  int retried_ = 0;
  std::string last_503_;
  std::unique_ptr<BackgroundProcess> controller_;
  std::unique_ptr<kube::HttpTransport> transport_;
};

void BM_AlertToRule(benchmark::State& state) {
  Bench bench(state);
  (void)bench.Run();
}

BENCHMARK(BM_AlertToRule)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
