// A real Prometheus (Debian's `prometheus`) scrapes `dra-controller run`
// against the real control plane with the demo fleet (the gpu.example.com
// DeviceClass serving example.com/gpu, node-a and node-b with 2 GPUs each).
// Its HTTP API must show the allocation gauges follow a Pod scheduled by the
// real scheduler and a DeviceTaintRule; every PromQL expression of the
// Grafana dashboard and of the alert rules (loaded into that Prometheus) must
// parse and find data; `promtool check metrics` must accept a live scrape.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/LoopbackPort.h"
#include "tests/support/RunningController.h"
#include "tests/support/ShippedMonitoring.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kResource = "example.com/gpu";
constexpr const char* kClass = "gpu.example.com";
constexpr const char* kTaintRule = "prometheus-test-taint";

// Metrics of reconcilers: they exist once a reconciler is registered with the
// Manager (extended resources #8, device health #9); this branch has none.
const std::set<std::string> kReconcilerMetrics = {"workqueue_depth",
                                                  "workqueue_work_duration_seconds_count"};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string RepoFile(const std::string& relative) {
  return ReadFile(std::string(DRA_REPO_ROOT) + "/" + relative);
}

std::string RuleFile() {
  return ShippedMonitoring::RuleFile("manifests/monitoring/prometheusrule.yaml");
}

struct ReferencedFamily {
  std::string type;
  std::set<std::string> labels;
};

// The families docs/reference/metrics.md lists: "| `name` | type | `a`, `b` | help |".
std::map<std::string, ReferencedFamily> ReferenceFamilies() {
  std::map<std::string, ReferencedFamily> families;
  std::istringstream page(RepoFile("docs/reference/metrics.md"));
  const std::regex row(R"(^\| `([a-z_:0-9]+)` \| (\w+) \| ([^|]*) \|)");
  const std::regex label("`([^`]+)`");
  for (std::string line; std::getline(page, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    ReferencedFamily& family = families[m[1]];
    family.type = m[2];
    std::string cell = m[3];
    for (std::sregex_iterator it(cell.begin(), cell.end(), label), end; it != end; ++it) {
      family.labels.insert((*it)[1]);
    }
  }
  return families;
}

// Every family of a live scrape is in the generated metrics reference with
// its type, and its series carry only the labels listed there (plus `le` on
// histogram buckets and, on device_info, the --metrics-device-attributes
// labels), so the reference cannot leave out what `run` serves.
void ExpectScrapeInReference(const std::string& scrape) {
  auto reference = ReferenceFamilies();
  ASSERT_FALSE(reference.empty()) << "docs/reference/metrics.md lists no family";
  std::istringstream lines(scrape);
  const std::regex type_line(R"(^# TYPE (\S+) (\S+)$)");
  const std::regex label(R"re(([A-Za-z_][A-Za-z0-9_]*)="(?:[^"\\]|\\.)*")re");
  std::string family;
  std::set<std::string> reported;  // family/label, once each
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, type_line)) {
      family = m[1];
      auto it = reference.find(family);
      EXPECT_TRUE(it != reference.end() && it->second.type == m[2].str())
          << family << " (" << m[2] << ") is not in docs/reference/metrics.md with that type; "
          << "a metric object the controller constructs is missing from "
             "controller/docs/MetricReference.cc (then run make docs)";
      continue;
    }
    if (line.empty() || line[0] == '#' || !reference.contains(family)) continue;
    if (family == "dra_controller_device_info") continue;
    auto brace = line.find('{');
    if (brace == std::string::npos) continue;
    std::string labels = line.substr(brace, line.find("} ") - brace);
    for (std::sregex_iterator it(labels.begin(), labels.end(), label), end; it != end; ++it) {
      std::string name = (*it)[1];
      if (name == "le" || !reported.insert(family + "/" + name).second) continue;
      EXPECT_TRUE(reference[family].labels.contains(name))
          << family << " has a series labelled " << name
          << " that docs/reference/metrics.md does not list";
    }
  }
}

std::string PodManifest(const std::string& name, const std::string& ns) {
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec",
               {{"automountServiceAccountToken", false},
                {"containers", json::array({{{"name", "main"},
                                             {"image", "registry.k8s.io/pause:3.10"},
                                             {"resources", {{"limits", {{kResource, "1"}}}}}}})}}}};
  return pod.dump();
}

std::string TaintRuleManifest(const std::string& effect) {
  json rule = {{"apiVersion", "resource.k8s.io/v1"},
               {"kind", "DeviceTaintRule"},
               {"metadata", {{"name", kTaintRule}}},
               {"spec",
                {{"deviceSelector", {{"driver", kClass}, {"pool", "node-a"}, {"device", "gpu-0"}}},
                 {"taint", {{"key", "example.com/broken"}, {"effect", effect}}}}}};
  return rule.dump();
}

// Every "expr" string in the dashboard JSON.
void CollectExprs(const json& node, std::vector<std::string>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (key == "expr" && value.is_string()) out.push_back(value);
      CollectExprs(value, out);
    }
  } else if (node.is_array()) {
    for (const auto& item : node) CollectExprs(item, out);
  }
}

std::vector<std::string> RuleExprs(const std::string& rules) {
  std::vector<std::string> exprs;
  std::istringstream in(rules);
  std::string line;
  while (std::getline(in, line)) {
    auto at = line.find("expr: ");
    if (at == std::string::npos) continue;
    std::string expr = line.substr(at + 6);
    if (expr == "|") {  // a block: the more-indented lines that follow
      expr.clear();
      std::streampos mark = in.tellg();
      while (std::getline(in, line) && line.find_first_not_of(' ') > at) {
        expr += line + "\n";
        mark = in.tellg();
      }
      in.seekg(mark);
    }
    exprs.push_back(expr);
  }
  return exprs;
}

std::set<std::string> MetricNames(const std::string& expr) {
  static const std::regex kName(
      R"(\b(dra_controller_[a-z_]+|leader_election_[a-z_]+|workqueue_[a-z_]+|rest_client_[a-z_]+|controller_runtime_[a-z_]+|up)\b)");
  std::set<std::string> names;
  for (std::sregex_iterator it(expr.begin(), expr.end(), kName), end; it != end; ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

class PrometheusTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    ASSERT_TRUE(
        cluster_
            ->Kubectl({"apply", "-f",
                       std::string(DRA_REPO_ROOT) + "/manifests/examples/gpu-deviceclass.yaml"})
            .ok());
    auto fleet = cluster_->RunRepoScript("hack/fake-gpu-fleet.sh", {"apply"});
    ASSERT_TRUE(fleet.ok()) << fleet.status().ToString();
    auto ns = cluster_->CreateTestNamespace("prometheus");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    StartController();
    if (HasFatalFailure()) return;
    StartPrometheus();
  }

  void TearDown() override {
    if (prometheus_) prometheus_->Signal(SIGTERM), (void)prometheus_->Wait(10s);
    if (controller_) controller_->Stop(40s);
    if (!cluster_) return;
    (void)cluster_->Kubectl({"delete", "devicetaintrule", kTaintRule, "--ignore-not-found"});
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
  }

  void StartController() {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {"--leader-elect", "--leader-election-namespace", ns_};
    options.wait_for_ports = {RunningController::Port::kMetrics};
    options.what = "the controller's metrics port";
    options.deadline = 30s;
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
    metrics_port_ = *controller_->metrics_port();
  }

  void StartPrometheus() {
    std::string rules = dir_.Write("rules.yaml", RuleFile());
    std::string config =
        dir_.Write("prometheus.yml",
                   "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                   "rule_files: ['" +
                       rules +
                       "']\n"
                       "scrape_configs:\n  - job_name: dra-controller\n    static_configs:\n"
                       "      - targets: ['127.0.0.1:" +
                       std::to_string(metrics_port_) + "']\n");
    for (int attempt = 0; attempt < 3 && !prometheus_ready_; ++attempt) {
      prometheus_port_ = LoopbackPort::Free();
      auto process = BackgroundProcess::Start(
          {"prometheus", "--config.file=" + config,
           "--storage.tsdb.path=" + (dir_.path() / ("data" + std::to_string(attempt))).string(),
           "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port_)});
      ASSERT_TRUE(process.ok()) << process.status().ToString();
      prometheus_ = std::move(*process);
      prometheus_ready_ = WaitFor("Prometheus ready", 30s,
                                  [&] {
                                    if (!prometheus_->Running()) return true;
                                    auto ready = Subprocess::Run({"curl", "-sf", Url("/-/ready")});
                                    return ready.ok() && ready->exit_code == 0;
                                  })
                              .ok() &&
                          prometheus_->Running();
    }
    ASSERT_TRUE(prometheus_ready_) << prometheus_->Output();
  }

  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(prometheus_port_) + path;
  }

  // The API's answer to an instant query (status, data.result, error).
  json Query(const std::string& promql) const {
    auto out = Subprocess::Run(
        {"curl", "-s", "--data-urlencode", "query=" + promql, Url("/api/v1/query")});
    if (!out.ok() || out->exit_code != 0) return json{{"status", "curl failed"}};
    return json::parse(out->out, nullptr, false);
  }

  // The single value of `promql`, or nullopt when the result is not one sample.
  std::optional<double> Value(const std::string& promql) const {
    json answer = Query(promql);
    if (answer.is_discarded() || answer.value("status", "") != "success") return std::nullopt;
    const json& result = answer["data"]["result"];
    if (!result.is_array() || result.size() != 1) return std::nullopt;
    return std::stod(result[0]["value"][1].get<std::string>());
  }

  ::testing::AssertionResult Reaches(const std::string& promql, double want,
                                     std::chrono::seconds deadline = 60s) {
    std::optional<double> seen;
    auto status = WaitFor(
        promql + " == " + std::to_string(want), deadline,
        [&] {
          seen = Value(promql);
          return seen == want;
        },
        [&] { return seen ? std::to_string(*seen) : std::string("no single sample"); });
    if (status.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << status.ToString();
  }

  // Devices of the gpu.example.com driver with type "gpu": what the demo
  // DeviceClass selects.
  int FleetDevices() const {
    auto slices = cluster_->GetJson({"get", "resourceslices"});
    if (!slices.ok()) return -1;
    int count = 0;
    for (const auto& slice : (*slices)["items"]) {
      if (slice["spec"].value("driver", "") != kClass) continue;
      for (const auto& device : slice["spec"].value("devices", json::array())) {
        auto type = device.value("/attributes/type/string"_json_pointer, std::string());
        count += type == "gpu" ? 1 : 0;
      }
    }
    return count;
  }

  std::string Gauge(const std::string& name) const {
    return std::string(name) + "{extended_resource=\"" + kResource + "\"}";
  }

  std::string ns_;
  TempDir dir_;
  std::unique_ptr<RunningController> controller_;
  std::unique_ptr<BackgroundProcess> prometheus_;
  int metrics_port_ = 0;
  int prometheus_port_ = 0;
  bool prometheus_ready_ = false;
};

TEST_F(PrometheusTest, GaugesFollowTheSchedulerAndADeviceTaint) {
  if (Skipped()) return;
  // Other tests may have left devices of their own; start from what is there.
  int devices = FleetDevices();
  ASSERT_GE(devices, 4);
  ASSERT_TRUE(Reaches(Gauge("dra_controller_extended_resource_capacity"), devices));
  std::optional<double> allocatable = Value(Gauge("dra_controller_extended_resource_allocatable"));
  std::optional<double> allocated = Value(Gauge("dra_controller_extended_resource_allocated"));
  ASSERT_TRUE(allocatable && allocated);

  // A device the rule taints is no longer allocatable (before the Pod, which
  // might take that very device).
  ASSERT_TRUE(cluster_->Create(TaintRuleManifest("NoSchedule")).ok());
  EXPECT_TRUE(
      Reaches("sum(dra_controller_devices_tainted{effect=\"NoSchedule\",node=\"node-a\","
              "device_class=\"gpu.example.com\"})",
              1));
  EXPECT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocatable"), *allocatable - 1));
  EXPECT_TRUE(
      Reaches("sum(dra_controller_devices_unavailable{reason=\"tainted\",node=\"node-a\","
              "device_class=\"gpu.example.com\"})",
              1));
  ASSERT_TRUE(cluster_->Kubectl({"delete", "devicetaintrule", kTaintRule}).ok());
  EXPECT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocatable"), *allocatable));

  // The device the scheduler allocates is no longer allocatable either.
  ASSERT_TRUE(cluster_->Create(PodManifest("gpu-user", ns_)).ok());
  EXPECT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocated"), *allocated + 1));
  EXPECT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocatable"), *allocatable - 1));
  EXPECT_TRUE(Reaches(
      "count(dra_controller_allocated_device_info{namespace=\"" + ns_ + "\",pod=\"gpu-user\"})",
      1));
  EXPECT_TRUE(Reaches("sum(dra_controller_resource_claims{namespace=\"" + ns_ +
                          "\",state=\"reserved\",source=\"extended_resource\"})",
                      1));
  ASSERT_TRUE(
      cluster_->Kubectl({"delete", "pod", "gpu-user", "-n", ns_, "--grace-period=0", "--force"})
          .ok());
  EXPECT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocated"), *allocated));
  EXPECT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocatable"), *allocatable));
  // No stale series: the Pod's info series is gone, not zero.
  EXPECT_TRUE(
      Reaches("count(dra_controller_allocated_device_info{pod=\"gpu-user\"}) or vector(0)", 0));
}

TEST_F(PrometheusTest, EveryDashboardAndAlertExpressionParsesAndFindsData) {
  if (Skipped()) return;
  ASSERT_TRUE(cluster_->Create(PodManifest("gpu-user", ns_)).ok());
  ASSERT_TRUE(Reaches(Gauge("dra_controller_extended_resource_allocated"), 1));
  // rate() needs two samples in its window.
  ASSERT_TRUE(Reaches("count(count_over_time(up{job=\"dra-controller\"}[5m]) >= 3)", 1));

  json dashboard = json::parse(RepoFile("manifests/monitoring/dashboards/dra-controller.json"));
  std::vector<std::string> panel_exprs;
  CollectExprs(dashboard, panel_exprs);
  ASSERT_GE(panel_exprs.size(), 10u);
  for (const auto& expr : panel_exprs) {
    json answer = Query(expr);
    ASSERT_FALSE(answer.is_discarded()) << expr;
    EXPECT_EQ(answer.value("status", ""), "success") << expr << ": " << answer.dump();
    EXPECT_FALSE(answer["data"]["result"].empty()) << "no data for dashboard query " << expr;
  }

  std::vector<std::string> rule_exprs = RuleExprs(RuleFile());
  ASSERT_EQ(rule_exprs.size(), 10u);
  std::set<std::string> missing_reconciler_metrics;
  for (const auto& expr : rule_exprs) {
    json answer = Query(expr);
    ASSERT_FALSE(answer.is_discarded()) << expr;
    EXPECT_EQ(answer.value("status", ""), "success") << expr << ": " << answer.dump();
    std::set<std::string> names = MetricNames(expr);
    EXPECT_FALSE(names.empty()) << expr;
    for (const auto& name : names) {
      bool found = Value("count(" + name + ")").has_value();
      if (!found && kReconcilerMetrics.contains(name)) {
        missing_reconciler_metrics.insert(name);
        continue;
      }
      EXPECT_TRUE(found) << "no data for " << name << " in alert expression " << expr;
    }
  }
  for (const auto& name : missing_reconciler_metrics) {
    std::cout << "note: " << name << " has no data: no reconciler is registered yet\n";
  }
  // Prometheus loaded and evaluates the rule file.
  json rules = json::parse(Subprocess::Run({"curl", "-s", Url("/api/v1/rules")})->out);
  size_t loaded = 0;
  for (const auto& group : rules["data"]["groups"]) loaded += group["rules"].size();
  EXPECT_EQ(loaded, rule_exprs.size()) << rules.dump();
}

TEST_F(PrometheusTest, PromtoolAcceptsALiveScrape) {
  if (Skipped()) return;
  ASSERT_TRUE(Reaches(Gauge("dra_controller_extended_resource_capacity"), FleetDevices()));
  auto scrape = Subprocess::Run(
      {"curl", "-sf", "http://127.0.0.1:" + std::to_string(metrics_port_) + "/metrics"});
  ASSERT_TRUE(scrape.ok() && scrape->exit_code == 0);
  for (const char* family :
       {"dra_controller_devices_published", "dra_controller_devices_allocatable",
        "dra_controller_devices_tainted", "dra_controller_pools", "dra_controller_device_info",
        "leader_election_master_status", "rest_client_requests_total"}) {
    EXPECT_NE(scrape->out.find(std::string("\n") + family), std::string::npos) << family;
  }
  // The registry's families and the allocation metrics' pre-rendered text
  // share one exposition: each family must be declared exactly once.
  std::istringstream lines(scrape->out);
  std::set<std::string> types;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("# TYPE ")) {
      EXPECT_TRUE(types.insert(line).second) << line;
    }
  }
  EXPECT_TRUE(types.contains("# TYPE dra_controller_allocated_device_info gauge"));
  EXPECT_TRUE(types.contains("# TYPE dra_controller_build_info gauge"));
  ExpectScrapeInReference(scrape->out);
  auto check = Subprocess::Run({"promtool", "check", "metrics"}, scrape->out);
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_EQ(check->exit_code, 0) << check->out << check->err;
  EXPECT_EQ(check->out + check->err, "") << "promtool lint findings";
}

}  // namespace
}  // namespace dra::testing
