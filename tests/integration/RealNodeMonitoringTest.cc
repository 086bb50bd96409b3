// Monitoring against the Deployment's Pods on the real node (NODE=1, the
// project's image imported): the host's Prometheus (Debian's, which is built
// without Kubernetes service discovery) gets both replicas as role
// endpointslice would find them (the Service's EndpointSlices, ready
// endpoints, port https-metrics), through file_sd, and scrapes them over TLS verified against
// the operator's CA for the Service's name, with the token of a
// ServiceAccount bound to dra-controller-metrics-reader: both targets up, the
// shipped rule files loaded. The host's Alertmanager, with the shipped
// receiver configuration (its URL a replica's Pod IP, since no kube-proxy
// routes the Service), delivers a DCGM-shaped alert to the webhook served by
// the Pod, verified against the same CA, with the token of the account
// manifests/monitoring/alertmanager-rbac.yaml binds: the GPU gets its
// DeviceHealth and taint.
#include <gtest/gtest.h>

#include <csignal>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/LoopbackPort.h"
#include "tests/support/RealNodeInstallFixture.h"
#include "tests/support/RepoRoot.h"
#include "tests/support/ShippedMonitoring.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kMonitoring = "monitoring";

class RealNodeMonitoringTest : public RealNodeInstallFixture {
 protected:
  void TearDown() override {
    for (auto* process : {prometheus_.get(), alertmanager_.get()}) {
      if (process != nullptr) process->Signal(SIGTERM), (void)process->Wait(10s);
    }
    if (cluster_) {
      (void)cluster_->Kubectl({"delete", "devicehealths", "-l",
                               "dra-controller.dev/source=alertmanager", "--ignore-not-found"});
      (void)cluster_->Kubectl(
          {"delete", "clusterrolebinding", "real-node-scraper", "--ignore-not-found"});
      (void)cluster_->Kubectl({"delete", "-f",
                               RepoRoot::Path("manifests/monitoring/alertmanager-rbac.yaml"),
                               "--ignore-not-found"});
      (void)cluster_->Kubectl({"delete", "namespace", kMonitoring, "--wait=false"});
    }
    RealNodeInstallFixture::TearDown();
  }

  // A token of ServiceAccount `name` in the monitoring namespace, in a file.
  std::string TokenFile(const std::string& name) {
    (void)cluster_->Kubectl({"create", "serviceaccount", name, "-n", kMonitoring});
    auto token = cluster_->Kubectl({"create", "token", name, "-n", kMonitoring});
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    std::string text = token.ok() ? token->out : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return dir_.Write(name + ".token", text);
  }

  // The Service's ready https-metrics endpoints, as role endpointslice finds
  // them, in file_sd's format.
  std::string Targets() {
    json targets = json::array();
    auto slices = cluster_->GetJson({"get", "endpointslices", "-n", namespace_, "-l",
                                     "kubernetes.io/service-name=dra-controller"});
    if (!slices.ok()) return "[]";
    for (const auto& slice : slices->value("items", json::array())) {
      int port = 0;
      for (const auto& p : slice.value("ports", json::array())) {
        if (p.value("name", "") == "https-metrics") port = p.value("port", 0);
      }
      for (const auto& e : slice.value("endpoints", json::array())) {
        if (!e.value("/conditions/ready"_json_pointer, false) || port == 0) continue;
        targets.push_back(e["addresses"][0].get<std::string>() + ":" + std::to_string(port));
      }
    }
    return json::array({{{"targets", targets}}}).dump();
  }

  std::string PrometheusConfig(const std::string& token_file) {
    std::string rules = dir_.Write(
        "rules.yaml", ShippedMonitoring::RuleFile("manifests/monitoring/prometheusrule.yaml"));
    std::string dcgm = dir_.Write(
        "dcgm.yaml", ShippedMonitoring::RuleFile("manifests/monitoring/dcgm-prometheusrule.yaml"));
    std::string targets = dir_.Write("targets.json", Targets());
    return "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
           "rule_files: ['" +
           rules + "', '" + dcgm +
           "']\n"
           "scrape_configs:\n"
           "  - job_name: dra-controller\n"
           "    scheme: https\n"
           "    file_sd_configs: [{files: ['" +
           targets +
           "']}]\n"
           "    tls_config:\n"
           "      ca_file: " +
           ca_file_ +
           "\n"
           "      server_name: dra-controller." +
           namespace_ +
           ".svc\n"
           "    authorization: {credentials_file: " +
           token_file + "}\n";
  }

  std::string AlertmanagerConfig(const std::string& pod_ip, const std::string& token_file) {
    std::string config = ShippedMonitoring::AlertmanagerConfig(
        "https://" + pod_ip + ":8444/alertmanager", token_file, ca_file_);
    EXPECT_FALSE(config.empty()) << "the shipped alertmanager-dra-controller.yaml changed shape";
    return config;
  }

  // Starts `argv` with --web.listen-address on a free loopback port; its port.
  int StartServer(std::vector<std::string> argv, std::unique_ptr<BackgroundProcess>& process) {
    for (int attempt = 0; attempt < 3; ++attempt) {
      int port = LoopbackPort::Free();
      std::vector<std::string> args = argv;
      args.push_back("--web.listen-address=127.0.0.1:" + std::to_string(port));
      auto started = BackgroundProcess::Start(args);
      if (!started.ok()) continue;
      process = std::move(*started);
      bool ready = WaitFor("ready", 30s, [&] {
                     if (!process->Running()) return true;
                     auto up = Subprocess::Run(
                         {"curl", "-sf", "http://127.0.0.1:" + std::to_string(port) + "/-/ready"});
                     return up.ok() && up->exit_code == 0;
                   }).ok();
      if (ready && process->Running()) return port;
    }
    ADD_FAILURE() << argv[0] << " did not start: " << (process ? process->Output() : "");
    return 0;
  }

  json Api(int port, const std::string& path, const std::string& data = "") {
    std::vector<std::string> argv = {"curl", "-s"};
    if (!data.empty())
      argv.insert(argv.end(), {"-H", "Content-Type: application/json", "-d", data});
    argv.push_back("http://127.0.0.1:" + std::to_string(port) + path);
    auto out = Subprocess::Run(argv);
    if (!out.ok()) return json();
    return json::parse(out->out, nullptr, false);
  }

  TempDir dir_;
  std::unique_ptr<BackgroundProcess> prometheus_;
  std::unique_ptr<BackgroundProcess> alertmanager_;
};

TEST_F(RealNodeMonitoringTest, PrometheusScrapesThePodsAndAlertmanagerTaintsThroughTheWebhook) {
  ASSERT_NO_FATAL_FAILURE(Install());
  ASSERT_TRUE(WaitFor("both replicas Ready", 60s, [&] { return ReadyPods().size() == 2; }).ok())
      << PodsAndEvents();
  (void)cluster_->Kubectl({"create", "namespace", kMonitoring});
  std::string scraper = TokenFile("prometheus");
  ASSERT_TRUE(cluster_
                  ->Kubectl({"create", "clusterrolebinding", "real-node-scraper",
                             "--clusterrole=dra-controller-metrics-reader",
                             "--serviceaccount=monitoring:prometheus"})
                  .ok());
  std::string sender = TokenFile("alertmanager-main");
  ASSERT_TRUE(
      cluster_
          ->Kubectl({"apply", "-f", RepoRoot::Path("manifests/monitoring/alertmanager-rbac.yaml")})
          .ok());

  int prometheus = StartServer(
      {"prometheus", "--config.file=" + dir_.Write("prometheus.yml", PrometheusConfig(scraper)),
       "--storage.tsdb.path=" + (dir_.path() / "tsdb").string()},
      prometheus_);
  ASSERT_NE(prometheus, 0);
  json targets;
  auto up = WaitFor(
      "both replicas' targets up through service discovery", 90s,
      [&] {
        targets = Api(prometheus, "/api/v1/targets?state=active");
        int healthy = 0;
        for (const auto& t : targets.value("/data/activeTargets"_json_pointer, json::array())) {
          healthy += t.value("health", "") == "up" ? 1 : 0;
        }
        return healthy == 2;
      },
      [&] { return targets.dump(); });
  ASSERT_TRUE(up.ok()) << up.ToString();
  json groups = Api(prometheus, "/api/v1/rules").value("/data/groups"_json_pointer, json::array());
  EXPECT_GE(groups.size(), 2u) << "the shipped rule files";

  // A DCGM-shaped alert for the node's gpu-0, as Prometheus would send it.
  std::string uuid;
  auto devices = node_->Devices();
  ASSERT_TRUE(devices.ok());
  for (const auto& d : *devices) {
    if (d.value("device", "") == "gpu-0") uuid = d.value("uuid", "");
  }
  std::string pod_ip = PodIp(ReadyPods().front());
  int alertmanager = StartServer(
      {"prometheus-alertmanager",
       "--config.file=" + dir_.Write("alertmanager.yml", AlertmanagerConfig(pod_ip, sender)),
       "--storage.path=" + (dir_.path() / "am").string(), "--cluster.listen-address="},
      alertmanager_);
  ASSERT_NE(alertmanager, 0);
  json alert = json::array({{{"labels",
                              {{"alertname", "GPUFellOffTheBus"},
                               {"dra_controller", "device-health"},
                               {"severity", "critical"},
                               {"job", "nvidia-dcgm-exporter"},
                               {"namespace", "gpu-operator"},
                               {"UUID", uuid},
                               {"gpu", "0"},
                               {"Hostname", node_->name()}}},
                             {"annotations", {{"summary", "Xid 79 (test)"}}}}});
  json posted = Api(alertmanager, "/api/v2/alerts", alert.dump());
  std::string health;
  auto tainted = WaitFor(
      "the alert's DeviceHealth and its rule for gpu-0", 60s,
      [&] {
        auto list = cluster_->GetJson(
            {"get", "devicehealths", "-l", "dra-controller.dev/source=alertmanager"});
        if (!list.ok() || list->value("items", json::array()).size() != 1) return false;
        health = (*list)["items"][0].value("/metadata/name"_json_pointer, std::string());
        auto rule = cluster_->Kubectl({"get", "devicetaintrule", "devicehealth-" + health,
                                       "--ignore-not-found", "-o", "name"});
        return rule.ok() && !rule->out.empty();
      },
      [&] { return alertmanager_->Output() + "\n" + Log(ReadyPods().front()); });
  ASSERT_TRUE(tainted.ok()) << tainted.ToString();
  auto got = cluster_->GetJson({"get", "devicehealth", health});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->value("/status/resolved"_json_pointer, std::string()),
            node_->driver() + "/" + node_->name() + "/gpu-0")
      << got->dump(2);
}

}  // namespace
}  // namespace dra::testing
