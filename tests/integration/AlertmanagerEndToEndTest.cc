// DCGM alerts through Alertmanager, end to end on the real control plane: a
// DCGM-exporter-shaped exposition served by the test (two fake nodes × 8 GPUs,
// the fleet's UUIDs), scraped by a real Prometheus (Debian's `prometheus`)
// that evaluates manifests/monitoring/dcgm-prometheusrule.yaml and notifies a
// real Alertmanager (Debian's `prometheus-alertmanager`) configured from
// manifests/monitoring/alertmanager-dra-controller.yaml, which delivers to
// `dra-controller run --alertmanager-webhook-bind-address` over HTTPS with a
// service-account token. A flipped Xid series taints exactly that GPU; clearing
// it lifts the rule after the hold-off. Requests posted directly check 401,
// 403, 400 (nothing written) and an unknown UUID (a Warning Event, the
// counter, nothing written). promtool runs the rules' unit tests and amtool
// checks the Alertmanager configuration.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "src/base/Rfc3339.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/LoopbackPort.h"
#include "tests/support/RunningController.h"
#include "tests/support/ScopedEnv.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/ShippedMonitoring.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kDriver = "gpu.example.com";
constexpr const char* kSourceLabel = "dra-controller.dev/source=alertmanager";
constexpr int kGpusPerNode = 8;
constexpr const char* kControllerPod = "dra-controller-e2e";
const std::vector<std::string> kNodes{"am-node-a", "am-node-b"};
const std::vector<std::string> kFleet{"am-node-a:8:80Gi:gpu-am", "am-node-b:8:80Gi:gpu-am"};
constexpr const char* kUnknownUuid = "GPU-00000000-dead-beef-0000-000000000000";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string RepoFile(const std::string& relative) {
  return ReadFile(std::string(DRA_REPO_ROOT) + "/" + relative);
}

std::string DcgmRuleFile() {
  return ShippedMonitoring::RuleFile("manifests/monitoring/dcgm-prometheusrule.yaml");
}

bool ReplaceOnce(std::string& text, const std::string& from, const std::string& to) {
  return ShippedMonitoring::ReplaceOnce(text, from, to);
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

TEST(DcgmAlertRulesTest, PromtoolChecksAndUnitTestsTheRules) {
  TempDir dir;
  std::string rules = dir.Write("dcgm-alerts.rules.yaml", DcgmRuleFile());
  std::string tests = dir.Write("dcgm-alerts-test.yaml",
                                RepoFile("manifests/monitoring/tests/dcgm/dcgm-alerts-test.yaml"));
  auto check = Subprocess::Run({"promtool", "check", "rules", rules});
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_EQ(check->exit_code, 0) << check->out << check->err;
  EXPECT_NE(check->out.find("SUCCESS: 6 rules found"), std::string::npos) << check->out;
  // promtool resolves rule_files against the working directory.
  auto unit = Subprocess::Run(
      {"sh", "-c", "cd \"$0\" && promtool test rules dcgm-alerts-test.yaml", dir.path().string()});
  ASSERT_TRUE(unit.ok()) << unit.status().ToString();
  EXPECT_EQ(unit->exit_code, 0) << unit->out << unit->err;
  EXPECT_NE(unit->out.find("SUCCESS"), std::string::npos) << unit->out;
}

TEST(DcgmAlertRulesTest, EveryRuleIsRoutedToTheControllerWithARunbook) {
  std::string rules = DcgmRuleFile();
  std::string health = RepoFile("docs/health.md");
  static const std::regex kAlert(R"(- alert: (\w+))");
  int alerts = 0;
  for (std::sregex_iterator it(rules.begin(), rules.end(), kAlert), end; it != end; ++it) {
    ++alerts;
    std::string name = (*it)[1];
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_NE(rules.find("runbook_url: \"https://github.com/dra-controller/dra-controller/blob/"
                         "main/docs/health.md#" +
                         lower + "\""),
              std::string::npos)
        << name;
    EXPECT_TRUE(std::regex_search(health, std::regex("\n#+ " + name + "\n")))
        << "no runbook section for " << name << " in docs/health.md";
  }
  EXPECT_EQ(alerts, 6);
  // Every rule carries the route's label (one count per rule).
  size_t routed = 0;
  for (size_t at = 0; (at = rules.find("dra_controller: device-health", at)) != std::string::npos;
       ++at) {
    ++routed;
  }
  EXPECT_EQ(routed, 6u);
}

TEST(DcgmAlertRulesTest, AmtoolAcceptsTheAlertmanagerConfiguration) {
  auto check = Subprocess::Run(
      {"amtool", "check-config",
       std::string(DRA_REPO_ROOT) + "/manifests/monitoring/alertmanager-dra-controller.yaml"});
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_EQ(check->exit_code, 0) << check->out << check->err;
}

// A GPU of the fake fleet as DCGM names it.
struct Gpu {
  std::string node;
  int index = 0;
  std::string uuid;
  std::string device;  // the slice's device name
};

// The exposition a DCGM exporter on each node would serve, all nodes in one
// page; XID values settable per UUID.
class DcgmExposition {
 public:
  explicit DcgmExposition(std::vector<Gpu> gpus) : gpus_(std::move(gpus)) {}

  void SetXid(const std::string& uuid, int xid) {
    std::lock_guard lock(mu_);
    xid_[uuid] = xid;
  }

  std::string Render() const {
    std::lock_guard lock(mu_);
    std::string out;
    Family(out, "DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).",
           [](const Gpu& g) { return std::to_string(40 + g.index); });
    Family(out, "DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.",
           [&](const Gpu& g) {
             auto it = xid_.find(g.uuid);
             return std::to_string(it == xid_.end() ? 0 : it->second);
           });
    Family(out, "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "counter",
           "Total number of double-bit volatile ECC errors.",
           [](const Gpu&) { return std::string("0"); });
    Family(out, "DCGM_FI_DEV_ROW_REMAP_FAILURE", "gauge", "Whether remapping of rows has failed",
           [](const Gpu&) { return std::string("0"); });
    Family(out, "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", "counter",
           "Total number of NVLink recovery errors.", [](const Gpu&) { return std::string("0"); });
    return out;
  }

 private:
  template <typename Value>
  void Family(std::string& out, const std::string& name, const std::string& type,
              const std::string& help, Value value) const {
    out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    for (const auto& g : gpus_) {
      char bus[32];
      std::snprintf(bus, sizeof(bus), "00000000:%02X:00.0", 0x18 + g.index * 0x10);
      out += name + "{gpu=\"" + std::to_string(g.index) + "\",UUID=\"" + g.uuid +
             "\",pci_bus_id=\"" + bus + "\",device=\"nvidia" + std::to_string(g.index) +
             "\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"" + g.node +
             "\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"} " + value(g) + "\n";
    }
  }

  std::vector<Gpu> gpus_;
  mutable std::mutex mu_;
  std::map<std::string, int> xid_;
};

class AlertmanagerEndToEndTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_NO_FATAL_FAILURE(ReadFleet());
    auto ns = cluster_->CreateTestNamespace("alertmanager");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    ASSERT_NO_FATAL_FAILURE(CreateAccounts());
    ASSERT_NO_FATAL_FAILURE(MakeCertificate());
    ASSERT_NO_FATAL_FAILURE(StartController());
  }

  void TearDown() override {
    for (auto* process : {&prometheus_, &alertmanager_}) {
      if (*process) (*process)->Signal(SIGTERM), (void)(*process)->Wait(10s);
    }
    if (controller_) controller_->Stop();
    if (exposition_server_) exposition_server_->Stop();
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l", kSourceLabel, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                             "app.kubernetes.io/managed-by=dra-controller", "--wait=false"});
    for (const auto& name : {binding_, metrics_binding_}) {
      if (!name.empty()) {
        (void)cluster_->Kubectl({"delete", "clusterrolebinding", name, "--ignore-not-found"});
      }
    }
    if (!metrics_binding_.empty()) {
      (void)cluster_->Kubectl({"delete", "clusterrole", metrics_binding_, "--ignore-not-found"});
    }
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    RemoveFakeFleet(*cluster_, kFleet);
  }

  // The fleet's GPUs with their UUID and index attributes, as published.
  void ReadFleet() {
    auto slices = cluster_->GetJson({"get", "resourceslices"});
    ASSERT_TRUE(slices.ok()) << slices.status().ToString();
    for (const auto& slice : (*slices)["items"]) {
      std::string node = slice["spec"].value("nodeName", "");
      if (slice["spec"].value("driver", "") != kDriver ||
          std::find(kNodes.begin(), kNodes.end(), node) == kNodes.end()) {
        continue;
      }
      for (const auto& device : slice["spec"]["devices"]) {
        Gpu gpu;
        gpu.node = node;
        gpu.device = device.value("name", "");
        gpu.uuid = device.value("/attributes/uuid/string"_json_pointer, std::string());
        gpu.index = device.value("/attributes/index/int"_json_pointer, -1);
        gpus_.push_back(gpu);
      }
    }
    ASSERT_EQ(gpus_.size(), kNodes.size() * kGpusPerNode);
    for (const auto& g : gpus_) ASSERT_TRUE(g.uuid.starts_with("GPU-")) << g.device;
  }

  const Gpu& GpuAt(const std::string& node, int index) const {
    for (const auto& g : gpus_) {
      if (g.node == node && g.index == index) return g;
    }
    static const Gpu kNone;
    return kNone;
  }

  // "sender": Alertmanager's account, bound by the shipped RBAC file (its
  // subject pointed at this namespace); "stranger": no rights; "metrics":
  // may read the controller's /metrics.
  void CreateAccounts() {
    for (const char* account : {"sender", "stranger", "metrics"}) {
      auto created = cluster_->Kubectl({"create", "serviceaccount", account, "-n", ns_});
      ASSERT_TRUE(created.ok()) << created.status().ToString();
    }
    std::string rbac = RepoFile("manifests/monitoring/alertmanager-rbac.yaml");
    binding_ = "dra-controller-alert-sender-" + ns_;
    // The binding gets a name of its own; the role is shared.
    auto at = rbac.find(
        "kind: ClusterRoleBinding\nmetadata:\n  name: "
        "dra-controller-alert-sender\n");
    ASSERT_NE(at, std::string::npos) << rbac;
    rbac.replace(at, rbac.find('\n', rbac.find("  name: ", at)) - at,
                 "kind: ClusterRoleBinding\nmetadata:\n  name: " + binding_);
    ASSERT_TRUE(ReplaceOnce(rbac, "    name: alertmanager-main\n    namespace: monitoring",
                            "    name: sender\n    namespace: " + ns_));
    auto applied = cluster_->Kubectl({"apply", "-f", "-"}, rbac);
    ASSERT_TRUE(applied.ok()) << applied.status().ToString();
    metrics_binding_ = "alertmanager-test-metrics-" + ns_;
    ASSERT_TRUE(cluster_
                    ->Kubectl({"create", "clusterrole", metrics_binding_, "--verb=get",
                               "--non-resource-url=/metrics"})
                    .ok());
    ASSERT_TRUE(cluster_
                    ->Kubectl({"create", "clusterrolebinding", metrics_binding_, "--clusterrole",
                               metrics_binding_, "--serviceaccount", ns_ + ":metrics"})
                    .ok());
    sender_token_ = Token("sender");
    stranger_token_ = Token("stranger");
    metrics_token_ = Token("metrics");
    token_file_ = dir_.Write("token", sender_token_);
  }

  std::string Token(const std::string& account) {
    auto token = cluster_->Kubectl({"create", "token", account, "-n", ns_});
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    return token.ok() ? Trimmed(token->out) : "";
  }

  // A CA and a serving certificate in --metrics-cert-dir for the Service's
  // name (the shipped server_name, which Alertmanager verifies although it
  // dials 127.0.0.1) and for 127.0.0.1 (curl's direct posts).
  void MakeCertificate() {
    TestCertificates pki(dir_.path().string());
    auto ca = pki.MakeCa("ca");
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    auto leaf = pki.MakeLeaf(*ca, "server", "dra-controller",
                             "DNS:dra-controller.dra-system.svc,IP:127.0.0.1");
    ASSERT_TRUE(leaf.ok()) << leaf.status().ToString();
    ca_file_ = ca->cert;
    cert_dir_ = (dir_.path() / "certs").string();
    std::filesystem::create_directories(cert_dir_);
    std::filesystem::copy_file(leaf->cert, cert_dir_ + "/tls.crt");
    std::filesystem::copy_file(leaf->key, cert_dir_ + "/tls.key");
  }

  void StartController() {
    // The Pod the controller names in its Events, as the downward API sets it.
    ScopedEnv pod("POD_NAME", kControllerPod);
    ScopedEnv pod_namespace("POD_NAMESPACE", ns_.c_str());
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {"--metrics-secure",
                    "--metrics-cert-dir",
                    cert_dir_,
                    "--alertmanager-webhook-bind-address",
                    "127.0.0.1:0",
                    "--health-preview",
                    "0s",
                    "--health-hold-off",
                    "3s"};
    options.wait_for = {"started devicehealth", "inventory synced"};
    options.wait_for_ports = {RunningController::Port::kWebhook, RunningController::Port::kMetrics};
    options.what = "the controller to sync and serve the webhook";
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
    webhook_port_ = *controller_->webhook_port();
    metrics_port_ = *controller_->metrics_port();
  }

  // POSTs `body` to the webhook over HTTPS (the CA verified); the HTTP status,
  // 0 when no answer came.
  int Post(const std::string& token, const std::string& body) {
    std::vector<std::string> argv = {
        "curl",          "-s", "-o",       "/dev/stderr", "-w", "%{http_code}",
        "--max-time",    "10", "--cacert", ca_file_,      "-H", "Content-Type: application/json",
        "--data-binary", "@-"};
    if (!token.empty()) argv.insert(argv.end(), {"-H", "Authorization: Bearer " + token});
    argv.push_back(WebhookUrl());
    auto out = Subprocess::Run(argv, body, 15s);
    if (!out.ok()) return 0;
    last_body_ = out->err;
    return std::atoi(out->out.c_str());
  }

  std::string WebhookUrl() const {
    return "https://127.0.0.1:" + std::to_string(webhook_port_) + "/alertmanager";
  }

  // The controller's counter of webhook alerts with `outcome` (0 when absent).
  double AlertsCounter(const std::string& outcome) {
    auto out = Subprocess::Run({"curl", "-sk", "-H", "Authorization: Bearer " + metrics_token_,
                                "https://127.0.0.1:" + std::to_string(metrics_port_) + "/metrics"});
    if (!out.ok()) return -1;
    std::regex series(R"(dra_controller_alerts_total\{[^}]*outcome=")" + outcome +
                      R"("[^}]*\} (\S+))");
    std::smatch match;
    return std::regex_search(out->out, match, series) ? std::stod(match[1]) : 0;
  }

  // An Alertmanager webhook payload (version 4) with one alert.
  static std::string Payload(const std::string& status, const json& labels,
                             const std::string& fingerprint) {
    json alert = {
        {"status", status},
        {"labels", labels},
        {"annotations", {{"summary", "test alert"}}},
        {"startsAt", "2026-12-05T08:00:00Z"},
        {"endsAt", status == "resolved" ? "2026-12-05T08:05:00Z" : "0001-01-01T00:00:00Z"},
        {"generatorURL", "http://prometheus.example/graph"},
        {"fingerprint", fingerprint}};
    json payload = {{"version", "4"},
                    {"groupKey", "{}/{dra_controller=\"device-health\"}:{}"},
                    {"truncatedAlerts", 0},
                    {"status", status},
                    {"receiver", "dra-controller"},
                    {"groupLabels", json::object()},
                    {"commonLabels", labels},
                    {"commonAnnotations", json::object()},
                    {"externalURL", "http://alertmanager.example"},
                    {"alerts", json::array({alert})}};
    return payload.dump();
  }

  // DeviceHealths the webhook wrote.
  json SourcedHealths() {
    auto got = cluster_->GetJson({"get", "devicehealths", "-l", kSourceLabel});
    return got.ok() ? (*got)["items"] : json::array({"unreadable"});
  }

  // Rules written by the controller that select a device of the test fleet.
  std::vector<json> FleetRules() {
    std::vector<json> rules;
    auto got = cluster_->GetJson(
        {"get", "devicetaintrules", "-l", "app.kubernetes.io/managed-by=dra-controller"});
    if (!got.ok()) return rules;
    for (const auto& rule : (*got)["items"]) {
      std::string pool = rule.value("/spec/deviceSelector/pool"_json_pointer, std::string());
      if (std::find(kNodes.begin(), kNodes.end(), pool) != kNodes.end()) rules.push_back(rule);
    }
    return rules;
  }

  void StartExposition() {
    exposition_ = std::make_shared<DcgmExposition>(gpus_);
    auto server = ScriptedHttpServer::Start();
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    exposition_server_ = std::move(*server);
    auto exposition = exposition_;
    exposition_server_->AddResponder(Route::Exact("GET", "/metrics"), [exposition](const auto&) {
      ScriptedResponse response;
      response.body = exposition->Render();
      response.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      return response;
    });
  }

  // The shipped configuration with the in-cluster names swapped for the
  // test's and its timers shortened.
  std::string AlertmanagerConfig() {
    std::string config = ShippedMonitoring::AlertmanagerConfig(WebhookUrl(), token_file_, ca_file_);
    EXPECT_FALSE(config.empty()) << "the shipped alertmanager-dra-controller.yaml changed shape";
    return config;
  }

  void StartAlertmanager() {
    std::string config = dir_.Write("alertmanager.yml", AlertmanagerConfig());
    bool ready = false;
    for (int attempt = 0; attempt < 3 && !ready; ++attempt) {
      alertmanager_port_ = LoopbackPort::Free();
      auto process = BackgroundProcess::Start(
          {"prometheus-alertmanager", "--config.file=" + config,
           "--storage.path=" + (dir_.path() / ("am" + std::to_string(attempt))).string(),
           "--web.listen-address=127.0.0.1:" + std::to_string(alertmanager_port_),
           "--cluster.listen-address="});
      ASSERT_TRUE(process.ok()) << process.status().ToString();
      alertmanager_ = std::move(*process);
      ready = WaitFor("Alertmanager ready", 30s,
                      [&] {
                        if (!alertmanager_->Running()) return true;
                        return Ready(alertmanager_port_);
                      })
                  .ok() &&
              alertmanager_->Running();
    }
    ASSERT_TRUE(ready) << alertmanager_->Output();
  }

  void StartPrometheus() {
    std::string rules = dir_.Write("dcgm-alerts.rules.yaml", DcgmRuleFile());
    std::string config = dir_.Write("prometheus.yml",
                                    "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                                    "rule_files: ['" +
                                        rules +
                                        "']\n"
                                        "alerting:\n  alertmanagers:\n    - static_configs:\n   "
                                        "     - targets: ['127.0.0.1:" +
                                        std::to_string(alertmanager_port_) +
                                        "']\n"
                                        // The job and namespace the shipped rules select.
                                        "scrape_configs:\n  - job_name: nvidia-dcgm-exporter\n    "
                                        "static_configs:\n"
                                        "      - targets: ['127.0.0.1:" +
                                        std::to_string(exposition_server_->port()) +
                                        "']\n        labels: {namespace: gpu-operator}\n");
    bool ready = false;
    for (int attempt = 0; attempt < 3 && !ready; ++attempt) {
      prometheus_port_ = LoopbackPort::Free();
      auto process = BackgroundProcess::Start(
          {"prometheus", "--config.file=" + config,
           "--storage.tsdb.path=" + (dir_.path() / ("prom" + std::to_string(attempt))).string(),
           "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port_)});
      ASSERT_TRUE(process.ok()) << process.status().ToString();
      prometheus_ = std::move(*process);
      ready = WaitFor("Prometheus ready", 30s,
                      [&] {
                        if (!prometheus_->Running()) return true;
                        return Ready(prometheus_port_);
                      })
                  .ok() &&
              prometheus_->Running();
    }
    ASSERT_TRUE(ready) << prometheus_->Output();
  }

  static bool Ready(int port) {
    auto ready =
        Subprocess::Run({"curl", "-sf", "http://127.0.0.1:" + std::to_string(port) + "/-/ready"});
    return ready.ok() && ready->exit_code == 0;
  }

  // Prometheus's answer to an instant query.
  json Query(const std::string& promql) {
    auto out =
        Subprocess::Run({"curl", "-s", "--data-urlencode", "query=" + promql,
                         "http://127.0.0.1:" + std::to_string(prometheus_port_) + "/api/v1/query"});
    if (!out.ok() || out->exit_code != 0) return json{{"status", "curl failed"}};
    return json::parse(out->out, nullptr, false);
  }

  std::string Logs() {
    std::string logs;
    if (controller_) logs += "\n--- controller:\n" + controller_->Output();
    if (alertmanager_) logs += "\n--- alertmanager:\n" + alertmanager_->Output();
    return logs;
  }

  ::testing::AssertionResult Eventually(const std::string& what, std::function<bool()> check,
                                        std::function<std::string()> describe,
                                        std::chrono::seconds deadline) {
    auto done = WaitFor(what, deadline, check, describe);
    if (done.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << done.ToString() << Logs();
  }

  std::string ns_;
  TempDir dir_;
  std::vector<Gpu> gpus_;
  std::string binding_, metrics_binding_;
  std::string sender_token_, stranger_token_, metrics_token_, token_file_;
  std::string ca_file_, cert_dir_;
  std::unique_ptr<RunningController> controller_;
  std::unique_ptr<BackgroundProcess> prometheus_, alertmanager_;
  std::shared_ptr<DcgmExposition> exposition_;
  std::unique_ptr<ScriptedHttpServer> exposition_server_;
  int webhook_port_ = 0, metrics_port_ = 0, alertmanager_port_ = 0, prometheus_port_ = 0;
  std::string last_body_;
};

std::string DescribeRules(const std::vector<json>& rules) {
  std::string out;
  for (const auto& r : rules) out += r["spec"].dump() + "\n";
  return out.empty() ? "no rule" : out;
}

TEST_F(AlertmanagerEndToEndTest, XidSeriesTaintsExactlyThatGpuAndClearingLiftsIt) {
  ASSERT_NO_FATAL_FAILURE(StartExposition());
  ASSERT_NO_FATAL_FAILURE(StartAlertmanager());
  ASSERT_NO_FATAL_FAILURE(StartPrometheus());
  // Prometheus sees all 16 GPUs before anything fails.
  ASSERT_TRUE(Eventually(
      "Prometheus to scrape 16 GPUs",
      [&] {
        json answer = Query("count(DCGM_FI_DEV_XID_ERRORS == 0)");
        const json& result = answer.value("/data/result"_json_pointer, json::array());
        return result.size() == 1 && result[0]["value"][1] == "16";
      },
      [&] { return Query("count(DCGM_FI_DEV_XID_ERRORS == 0)").dump(); }, 30s));
  ASSERT_TRUE(FleetRules().empty()) << DescribeRules(FleetRules());

  const Gpu& gpu = GpuAt("am-node-b", 5);
  ASSERT_FALSE(gpu.uuid.empty());
  exposition_->SetXid(gpu.uuid, 79);
  auto flipped = std::chrono::steady_clock::now();
  std::vector<json> rules;
  // Scrape (1 s) + evaluation (1 s) + group_wait (1 s) + delivery + reconcile.
  ASSERT_TRUE(Eventually(
      "a DeviceTaintRule for " + gpu.node + "/" + gpu.device,
      [&] {
        rules = FleetRules();
        return !rules.empty();
      },
      [&] { return DescribeRules(rules); }, 30s));
  auto tainted_after = std::chrono::steady_clock::now() - flipped;
  std::cout << "Xid flipped → DeviceTaintRule: "
            << std::chrono::duration_cast<std::chrono::milliseconds>(tainted_after).count()
            << " ms\n";
  ASSERT_EQ(rules.size(), 1u) << DescribeRules(rules);
  const json& selector = rules[0]["spec"]["deviceSelector"];
  EXPECT_EQ(selector.value("driver", ""), kDriver);
  EXPECT_EQ(selector.value("pool", ""), gpu.node);
  EXPECT_EQ(selector.value("device", ""), gpu.device);
  // No preview: the eviction taint is in force at once.
  ASSERT_TRUE(Eventually(
      "the rule's effect to be NoExecute",
      [&] {
        rules = FleetRules();
        return rules.size() == 1 &&
               rules[0].value("/spec/taint/effect"_json_pointer, std::string()) == "NoExecute";
      },
      [&] { return DescribeRules(rules); }, 10s));
  json healths = SourcedHealths();
  ASSERT_EQ(healths.size(), 1u) << healths.dump();
  EXPECT_EQ(healths[0].value("/spec/state"_json_pointer, std::string()), "Unhealthy");
  EXPECT_EQ(healths[0].value("/spec/reason"_json_pointer, std::string()), "GPUFellOffTheBus");

  exposition_->SetXid(gpu.uuid, 0);
  auto cleared = std::chrono::steady_clock::now();
  ASSERT_TRUE(Eventually(
      "the DeviceHealth to return to Healthy",
      [&] {
        healths = SourcedHealths();
        return healths.size() == 1 &&
               healths[0].value("/spec/state"_json_pointer, std::string()) == "Healthy";
      },
      [&] { return healths.dump(); }, 30s));
  // The rule stays through the 3 s hold-off, then goes.
  EXPECT_EQ(FleetRules().size(), 1u) << "the rule went before the hold-off";
  ASSERT_TRUE(Eventually(
      "the rule to go after the hold-off", [&] { return FleetRules().empty(); },
      [&] { return DescribeRules(FleetRules()); }, 30s));
  EXPECT_GE(std::chrono::steady_clock::now() - cleared, 3s);
}

TEST_F(AlertmanagerEndToEndTest, BadRequestsAreRefusedAndWriteNothing) {
  const Gpu& gpu = GpuAt("am-node-a", 2);
  ASSERT_FALSE(gpu.uuid.empty());
  json labels = {{"alertname", "GPUFellOffTheBus"},
                 {"dra_controller", "device-health"},
                 {"UUID", gpu.uuid},
                 {"gpu", std::to_string(gpu.index)},
                 {"Hostname", gpu.node}};
  std::string firing = Payload("firing", labels, "1f2e3d4c5b6a7980");
  EXPECT_EQ(Post("", firing), 401) << last_body_;
  EXPECT_EQ(Post("not-a-token", firing), 401) << last_body_;
  EXPECT_EQ(Post(stranger_token_, firing), 403) << last_body_;
  // Truncated JSON, alerts that are not a list, an alert without labels.
  std::string truncated = firing.substr(0, firing.size() / 2);
  json not_a_list = json::parse(firing);
  not_a_list["alerts"] = "GPUFellOffTheBus";
  json no_labels = json::parse(firing);
  no_labels["alerts"][0].erase("labels");
  for (const std::string& body : {truncated, not_a_list.dump(), no_labels.dump()}) {
    int status = 0;
    // RBAC reaches the authorizer through an informer: allow a moment.
    auto answered = WaitFor(
        "the sender to be authorized", 30s,
        [&] { return (status = Post(sender_token_, body)) != 403; }, [&] { return last_body_; });
    ASSERT_TRUE(answered.ok()) << answered.ToString();
    EXPECT_EQ(status, 400) << body << ": " << last_body_;
  }

  double unknown_before = AlertsCounter("unknown_device");
  json unknown = labels;
  unknown["UUID"] = kUnknownUuid;
  EXPECT_EQ(Post(sender_token_, Payload("firing", unknown, "0badc0de0badc0de")), 200) << last_body_;
  json events;
  EXPECT_TRUE(Eventually(
      "a Warning Event on the controller's Pod naming the unknown UUID",
      [&] {
        auto got = cluster_->GetJson({"get", "events", "-n", ns_, "--field-selector",
                                      "reason=UnknownDevice,type=Warning,involvedObject.name=" +
                                          std::string(kControllerPod)});
        events = got.ok() ? (*got)["items"] : json::array();
        for (const auto& e : events) {
          if (e.value("message", "").find(kUnknownUuid) != std::string::npos) return true;
        }
        return false;
      },
      [&] { return events.dump(); }, 20s));
  EXPECT_EQ(AlertsCounter("unknown_device"), unknown_before + 1);
  // Each request was answered once handled: nothing was written for any.
  EXPECT_EQ(SourcedHealths(), json::array());
  // The same alert, well formed, is written.
  EXPECT_EQ(Post(sender_token_, Payload("firing", labels, "1f2e3d4c5b6a7980")), 200) << last_body_;
  json healths;
  ASSERT_TRUE(Eventually(
      "the valid alert's DeviceHealth", [&] { return !(healths = SourcedHealths()).empty(); },
      [&] { return healths.dump(); }, 10s));
  ASSERT_EQ(healths.size(), 1u) << healths.dump();
  std::string target = healths[0]["spec"].dump();
  EXPECT_NE(target.find(gpu.uuid), std::string::npos) << target;
  EXPECT_EQ(target.find(kUnknownUuid), std::string::npos) << target;
}

// Outside text and times that once broke or poisoned notifications: startsAt
// in 9999 is refused and writes nothing; a 10 KB summary of three-byte
// characters is applied, its message cut at a character.
TEST_F(AlertmanagerEndToEndTest, FarFutureTimesAndLongNonAsciiTextAreHandled) {
  const Gpu& gpu = GpuAt("am-node-a", 3);
  ASSERT_FALSE(gpu.uuid.empty());
  json labels = {{"alertname", "GPUFellOffTheBus"},
                 {"dra_controller", "device-health"},
                 {"UUID", gpu.uuid},
                 {"gpu", std::to_string(gpu.index)},
                 {"Hostname", gpu.node}};
  json far = json::parse(Payload("firing", labels, "f00dfeedf00dfeed"));
  far["alerts"][0]["startsAt"] = "9999-12-31T23:59:59Z";
  int status = 0;
  // RBAC reaches the authorizer through an informer: allow a moment.
  auto answered = WaitFor(
      "the sender to be authorized", 30s,
      [&] { return (status = Post(sender_token_, far.dump())) != 403; },
      [&] { return last_body_; });
  ASSERT_TRUE(answered.ok()) << answered.ToString();
  EXPECT_EQ(status, 200) << last_body_;
  EXPECT_NE(last_body_.find(R"("outcome":"invalid")"), std::string::npos) << last_body_;
  EXPECT_EQ(SourcedHealths(), json::array());

  json long_text = json::parse(Payload("firing", labels, "f00dfeedf00dfeed"));
  std::string euros;
  for (int i = 0; i < 3400; ++i) euros += "\xE2\x82\xAC";
  long_text["alerts"][0]["annotations"]["summary"] = euros;
  EXPECT_EQ(Post(sender_token_, long_text.dump()), 200) << last_body_.substr(0, 300);
  EXPECT_NE(last_body_.find(R"("outcome":"applied")"), std::string::npos)
      << last_body_.substr(0, 300);
  json healths;
  ASSERT_TRUE(Eventually(
      "the alert's DeviceHealth", [&] { return !(healths = SourcedHealths()).empty(); },
      [&] { return healths.dump().substr(0, 300); }, 10s));
  std::string message = healths[0].value("/spec/message"_json_pointer, std::string());
  EXPECT_GE(message.size(), 1020u);
  EXPECT_LE(message.size(), 1024u);
  EXPECT_EQ(message.size() % 3, 0u) << "cut inside a character";
}

// Issue 55: a resolution that arrived before its (older) firing notification,
// for a GPU without a DeviceHealth, was forgotten, and the late firing one made
// the GPU Unhealthy for good. The webhook keeps the resolution in its
// ConfigMap, so the late one is stale, also after a restart.
TEST_F(AlertmanagerEndToEndTest, ALateFiringNotificationAfterItsResolutionWritesNothing) {
  const Gpu& gpu = GpuAt("am-node-b", 6);
  ASSERT_FALSE(gpu.uuid.empty());
  json labels = {{"alertname", "GPUXidCritical"},
                 {"dra_controller", "device-health"},
                 {"UUID", gpu.uuid},
                 {"gpu", std::to_string(gpu.index)},
                 {"Hostname", gpu.node}};
  // Times of now: the memory keeps a day before its newest resolution, and
  // other tests' resolutions in it are of now.
  auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  auto dated = [&](const std::string& state) {
    json payload = json::parse(Payload(state, labels, "1a7e1a7e1a7e1a7e"));
    payload["alerts"][0]["startsAt"] = kube::Rfc3339::FormatMillis(now_ms - 60'000);
    if (state == "resolved") {
      payload["alerts"][0]["endsAt"] = kube::Rfc3339::FormatMillis(now_ms - 1'000);
    }
    return payload.dump();
  };
  int status = 0;
  auto answered = WaitFor(
      "the sender to be authorized", 30s,
      [&] { return (status = Post(sender_token_, dated("resolved"))) != 403; },
      [&] { return last_body_; });
  ASSERT_TRUE(answered.ok()) << answered.ToString();
  EXPECT_EQ(status, 200) << last_body_;
  EXPECT_NE(last_body_.find(R"("outcome":"unchanged")"), std::string::npos) << last_body_;
  auto memory = cluster_->Kubectl({"get", "configmaps", "-A", "--field-selector",
                                   "metadata.name=dra-controller-alert-resolutions", "-o",
                                   "jsonpath={.items[0].metadata.namespace} {.items[0].data}"});
  ASSERT_TRUE(memory.ok()) << memory.status().ToString();
  EXPECT_NE(memory->out.find("1a7e1a7e1a7e1a7e"), std::string::npos) << memory->out;
  std::string memory_ns = memory->out.substr(0, memory->out.find(' '));

  controller_->Stop();
  controller_.reset();
  ASSERT_NO_FATAL_FAILURE(StartController());
  EXPECT_EQ(Post(sender_token_, dated("firing")), 200) << last_body_;
  EXPECT_NE(last_body_.find(R"("outcome":"stale")"), std::string::npos) << last_body_;
  EXPECT_EQ(SourcedHealths(), json::array());
  (void)cluster_->Kubectl({"delete", "configmap", "dra-controller-alert-resolutions", "-n",
                           memory_ns, "--ignore-not-found"});
}

}  // namespace
}  // namespace dra::testing
