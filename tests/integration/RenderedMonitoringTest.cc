// The monitoring objects as an operator installs them, used by a real
// Prometheus (Debian's `prometheus`) and a real Alertmanager (Debian's
// `prometheus-alertmanager`) against `dra-controller run` serving a
// certificate they verify, on the real control plane.
//
// Each install source is rendered in a namespace other than dra-system where
// it allows one: the Helm chart (release namespace gpu-ops-<random>, release
// labels, tls.secretName, monitoring on), README's overlay (manifests/ with
// the monitoring and tls components, dra-system) and
// manifests/examples/monitoring-overlay (with its tls component, gpu-ops). A CA
// and a serving certificate for the Service's names (no IP address) go into
// the Secret the rendered Deployment mounts; the controller serves those
// files. The rendered scraper identity (ServiceAccount, token Secret, binding
// to dra-controller-metrics-reader) is applied; kube-controller-manager's
// token controller fills the token Secret, and the scrape sends that token.
//
// The Prometheus Operator is not available here: the rendered ServiceMonitor
// is translated into the scrape_config the Operator generates
// (ServiceMonitorScrapeConfig: CA Secret -> ca_file, serverName ->
// server_name, token Secret -> authorization.credentials), with one static
// target 127.0.0.1:<port> instead of the endpoints of the Service, which has
// no Pods here; server_name makes verification by the Service's name work on
// the loopback address. The interval becomes 1 s. Next to that job, the same
// job with another CA, with a token of an account not bound to the reader and
// without server_name must fail.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>

#include "controller/translate/YamlJson.h"
#include "src/base/Base64.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/KustomizeOverlay.h"
#include "tests/support/LoopbackPort.h"
#include "tests/support/RunningController.h"
#include "tests/support/ServiceMonitorScrapeConfig.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

enum class Source { kHelm, kReadmeOverlay, kExampleOverlay };

std::string SourceName(Source source) {
  switch (source) {
    case Source::kHelm:
      return "HelmChart";
    case Source::kReadmeOverlay:
      return "ReadmeOverlay";
    case Source::kExampleOverlay:
      return "ExampleOverlay";
  }
  return "";
}

void PrintTo(Source source, std::ostream* out) { *out << SourceName(source); }

std::string Repo(const std::string& path) { return std::string(DRA_REPO_ROOT) + "/" + path; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Replaces every occurrence of `from`; how many there were.
int ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  int count = 0;
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size(), ++count) {
    text.replace(at, from.size(), to);
  }
  return count;
}

kube::Result<std::vector<json>> ParseStream(const std::string& stream) {
  std::vector<json> objects;
  try {
    for (const YAML::Node& doc : YAML::LoadAll(stream)) {
      if (doc.IsMap()) objects.push_back(translate::YamlJson::ToJson(doc));
    }
  } catch (const YAML::Exception& e) {
    return kube::Status(kube::StatusCode::kParseError, std::string("invalid YAML: ") + e.what());
  }
  return objects;
}

// The rendered object of `kind` named `name` (in any namespace), or null.
const json* Find(const std::vector<json>& objects, const std::string& kind,
                 const std::string& name) {
  for (const json& object : objects) {
    if (object.value("kind", "") == kind &&
        object.value("/metadata/name"_json_pointer, std::string()) == name) {
      return &object;
    }
  }
  return nullptr;
}

class RenderedMonitoringTest : public ClusterTest {
 protected:
  void SetUpFor(Source source) {
    ClusterTest::SetUp();
    if (Skipped()) return;
    source_ = source;
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
    ns_ = source_ == Source::kHelm            ? "gpu-ops-" + RandomSuffix()
          : source_ == Source::kReadmeOverlay ? "dra-system"
                                              : "gpu-ops";
    Render();
    if (Skipped()) return;
    monitor_ = Find(objects_, "ServiceMonitor", "dra-controller");
    ASSERT_NE(monitor_, nullptr) << "no ServiceMonitor rendered";
    ASSERT_EQ(monitor_->value("/metadata/namespace"_json_pointer, std::string()), ns_);
  }

  void TearDown() override {
    for (auto* process : {&prometheus_, &alertmanager_}) {
      if (*process) (*process)->Signal(SIGTERM), (void)(*process)->Wait(10s);
    }
    if (controller_) controller_->Stop();
    if (!cluster_) return;
    for (const json& object : created_) {
      std::vector<std::string> args{"delete", object["kind"], object["metadata"]["name"],
                                    "--ignore-not-found", "--wait=false"};
      std::string ns = object["metadata"].value("namespace", "");
      if (!ns.empty()) args.insert(args.end(), {"-n", ns});
      (void)cluster_->Kubectl(args);
    }
    if (!delete_namespace_) return;
    if (source_ == Source::kHelm) {
      cluster_->DeleteTestNamespace(ns_);
      return;
    }
    // Waits, so that the next test of this fixed namespace does not meet it terminating.
    (void)cluster_->Kubectl(
        {"delete", "namespace", ns_, "--ignore-not-found", "--wait=true", "--timeout=60s"});
  }

  static std::string RandomSuffix() {
    std::random_device random;
    std::string suffix;
    for (int i = 0; i < 5; ++i) suffix += "abcdefghijklmnopqrstuvwxyz0123456789"[random() % 36];
    return suffix;
  }

  // The install's namespace, made unless it is there; one a previous test is
  // still deleting is waited for.
  void CreateNamespace() {
    auto usable = WaitFor("namespace " + ns_ + " to be usable", TestTime::Scaled(60s), [&] {
      auto got = cluster_->Kubectl(
          {"get", "namespace", ns_, "--ignore-not-found", "-o", "jsonpath={.status.phase}"});
      return got.ok() && got->out != "Terminating";
    });
    ASSERT_TRUE(usable.ok()) << usable.ToString();
    auto exists = cluster_->Kubectl({"get", "namespace", ns_, "--ignore-not-found", "-o", "name"});
    ASSERT_TRUE(exists.ok()) << exists.status().ToString();
    if (!exists->out.empty()) return;
    auto created = cluster_->Kubectl({"create", "namespace", ns_});
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    delete_namespace_ = true;
  }

  void Render() {
    kube::Result<ProcessOutput> rendered = kube::Status(kube::StatusCode::kInternal, "");
    const char* helm = std::getenv("DRA_HELM");
    if (source_ == Source::kHelm && (helm == nullptr || !std::filesystem::exists(helm))) {
      std::string why = "DRA_HELM names no helm binary (hack/helm/build.sh; the cluster's env)";
      if (std::getenv("DRA_REQUIRE_CLUSTER") != nullptr) FAIL() << why;
      GTEST_SKIP() << why;
    }
    if (source_ == Source::kHelm) {
      rendered =
          Helm({"template", "dra-controller", Repo("manifests/helm/dra-controller"), "--namespace",
                ns_, "--set", "namespace.create=false", "--set", "monitoring.enabled=true", "--set",
                "monitoring.labels.release=kps", "--set", "tls.secretName=dra-controller-tls",
                "--set", "monitoring.alertmanager.namespace=" + ns_, "--set",
                "monitoring.alertmanager.serviceAccount=" + std::string(kAlertmanager)});
    } else {
      KustomizeOverlay overlay(
          {source_ == Source::kReadmeOverlay ? "manifests"
                                             : "manifests/examples/monitoring-overlay"},
          source_ == Source::kReadmeOverlay
              ? std::vector<std::string>{"manifests/monitoring", "manifests/tls"}
              : std::vector<std::string>{});  // the example brings its own tls component
      rendered = cluster_->Kubectl({"kustomize", overlay.path()});
    }
    ASSERT_TRUE(rendered.ok()) << rendered.status().ToString();
    auto objects = ParseStream(rendered->out);
    ASSERT_TRUE(objects.ok()) << objects.status().ToString();
    objects_ = std::move(*objects);
  }

  kube::Result<ProcessOutput> Helm(const std::vector<std::string>& args) {
    const char* helm = std::getenv("DRA_HELM");
    std::string home = dir_.path().string() + "/helm";
    std::vector<std::string> argv{"env", "HELM_CACHE_HOME=" + home + "/cache",
                                  "HELM_CONFIG_HOME=" + home + "/config",
                                  "HELM_DATA_HOME=" + home + "/data", helm};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = Subprocess::Run(argv, "", 120s);
    if (result.ok() && result->exit_code != 0) {
      return kube::Status(kube::StatusCode::kInternal, "helm: " + result->err);
    }
    return result;
  }

  // Applies `object` as rendered; remembers it for TearDown unless it was
  // there before (a ClusterRole other installs share).
  void Apply(const json& object) {
    std::vector<std::string> get{
        "get", object["kind"], object["metadata"]["name"], "--ignore-not-found", "-o", "name"};
    std::string ns = object["metadata"].value("namespace", "");
    if (!ns.empty()) get.insert(get.end(), {"-n", ns});
    auto existed = cluster_->Kubectl(get);
    ASSERT_TRUE(existed.ok()) << existed.status().ToString();
    auto applied = cluster_->Kubectl({"apply", "-f", "-"}, object.dump());
    ASSERT_TRUE(applied.ok()) << applied.status().ToString() << "\n" << object.dump(2);
    if (existed->out.empty()) created_.push_back(object);
  }

  // The Secret the rendered Deployment serves its certificate from.
  std::string ServingSecretName() const {
    const json* deployment = Find(objects_, "Deployment", "dra-controller");
    if (deployment == nullptr) return "";
    for (const json& volume :
         deployment->value("/spec/template/spec/volumes"_json_pointer, json::array())) {
      if (volume.value("name", "") == "tls") {
        return volume.value("/secret/secretName"_json_pointer, std::string());
      }
    }
    return "";
  }

  // A CA and a certificate for the Service's names in the namespace, in the
  // Secret the Deployment mounts (tls.crt, tls.key, ca.crt); a second CA
  // that signed nothing of ours.
  void MakeServingSecret() {
    ASSERT_NO_FATAL_FAILURE(CreateNamespace());
    std::string secret = ServingSecretName();
    ASSERT_FALSE(secret.empty()) << "the rendered Deployment mounts no Secret as volume tls";
    TestCertificates pki(dir_.path().string());
    auto ca = pki.MakeCa("ca");
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    auto other = pki.MakeCa("other-ca");
    ASSERT_TRUE(other.ok()) << other.status().ToString();
    other_ca_file_ = other->cert;
    const std::string svc = "dra-controller." + ns_;
    auto leaf = pki.MakeLeaf(
        *ca, "serving", "dra-controller",
        "DNS:dra-controller,DNS:" + svc + ",DNS:" + svc + ".svc,DNS:" + svc + ".svc.cluster.local");
    ASSERT_TRUE(leaf.ok()) << leaf.status().ToString();
    json object = {{"apiVersion", "v1"},
                   {"kind", "Secret"},
                   {"type", "kubernetes.io/tls"},
                   {"metadata", {{"name", secret}, {"namespace", ns_}}},
                   {"data",
                    {{"tls.crt", kube::Base64Encode(ReadFile(leaf->cert))},
                     {"tls.key", kube::Base64Encode(ReadFile(leaf->key))},
                     {"ca.crt", kube::Base64Encode(ReadFile(ca->cert))}}}};
    ASSERT_NO_FATAL_FAILURE(Apply(object));
    // --metrics-cert-dir holds the Secret's files as the kubelet mounts them.
    cert_dir_ = (dir_.path() / "serving").string();
    std::filesystem::create_directories(cert_dir_);
    for (const char* key : {"tls.crt", "tls.key", "ca.crt"}) {
      auto value = SecretValue(ns_, secret, key);
      ASSERT_TRUE(value.ok()) << value.status().ToString();
      std::ofstream(cert_dir_ + "/" + key) << *value;
    }
  }

  kube::Result<std::string> SecretValue(const std::string& ns, const std::string& name,
                                        const std::string& key) const {
    auto secret = cluster_->GetJson({"get", "secret", name, "-n", ns});
    if (!secret.ok()) return secret.status();
    std::string encoded = secret->value("data", json::object()).value(key, "");
    if (encoded.empty()) {
      return kube::Status(kube::StatusCode::kNotFound,
                          "Secret " + ns + "/" + name + " has no " + key);
    }
    return kube::Base64Decode(encoded);
  }

  // The scrape identity the ServiceMonitor names, followed from it: the token
  // Secret, its ServiceAccount, the bindings naming that account and the
  // roles they grant.
  void ApplyScraperIdentity() {
    std::string secret = monitor_->value(
        "/spec/endpoints/0/authorization/credentials/name"_json_pointer, std::string());
    const json* token = Find(objects_, "Secret", secret);
    ASSERT_NE(token, nullptr) << "the credentials Secret " << secret << " is not rendered";
    std::string account = token->value(
        "/metadata/annotations/kubernetes.io~1service-account.name"_json_pointer, std::string());
    const json* sa = Find(objects_, "ServiceAccount", account);
    ASSERT_NE(sa, nullptr) << "the token's ServiceAccount " << account << " is not rendered";
    ASSERT_NO_FATAL_FAILURE(Apply(*sa));
    ASSERT_NO_FATAL_FAILURE(Apply(*token));
    int bindings = 0;
    json subject = {{"kind", "ServiceAccount"}, {"name", account}, {"namespace", ns_}};
    for (const json& object : objects_) {
      if (object.value("kind", "") != "ClusterRoleBinding") continue;
      json subjects = object.value("subjects", json::array());
      if (std::find(subjects.begin(), subjects.end(), subject) == subjects.end()) continue;
      const json* role = Find(objects_, "ClusterRole", object["roleRef"]["name"]);
      ASSERT_NE(role, nullptr) << object.dump();
      ASSERT_NO_FATAL_FAILURE(Apply(*role));
      ASSERT_NO_FATAL_FAILURE(Apply(object));
      ++bindings;
    }
    ASSERT_GE(bindings, 1) << "no rendered binding names " << subject.dump();
  }

  // The scrape_config the Operator would generate, the Secrets read from the cluster.
  kube::Result<json> TranslatedScrape() const {
    return ServiceMonitorScrapeConfig::Translate(
        *monitor_, "127.0.0.1:" + std::to_string(metrics_port_), dir_.path().string(),
        [this](const std::string& ns, const std::string& name, const std::string& key) {
          // The token controller fills the token Secret shortly after it is made.
          kube::Result<std::string> value = kube::Status(kube::StatusCode::kNotFound, "");
          (void)WaitFor("Secret " + name + " key " + key, TestTime::Scaled(30s), [&] {
            value = SecretValue(ns, name, key);
            return value.ok();
          });
          return value;
        });
  }

  std::string Token(const std::string& account) {
    auto token = cluster_->Kubectl({"create", "token", account, "-n", ns_});
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    if (!token.ok()) return "";
    return token->out.substr(0, token->out.find_last_not_of('\n') + 1);
  }

  void StartController(const std::vector<std::string>& extra = {}) {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {"--metrics-secure", "--metrics-cert-dir", cert_dir_};
    options.args.insert(options.args.end(), extra.begin(), extra.end());
    bool webhook = !extra.empty();
    options.wait_for_ports = {RunningController::Port::kMetrics};
    if (webhook) options.wait_for_ports.push_back(RunningController::Port::kWebhook);
    options.what = "the controller to serve metrics";
    options.deadline = TestTime::Scaled(30s);
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
    metrics_port_ = *controller_->metrics_port();
    if (webhook) webhook_port_ = *controller_->webhook_port();
  }

  // Starts `argv` + --web.listen-address on a free port until /-/ready
  // answers, up to three times ("{attempt}" in an argument becomes the
  // attempt's number, for a fresh storage directory); its port, 0 if none.
  int StartServer(std::unique_ptr<BackgroundProcess>& process, std::vector<std::string> argv) {
    for (int attempt = 0; attempt < 3; ++attempt) {
      int port = LoopbackPort::Free();
      std::vector<std::string> args = argv;
      args.push_back("--web.listen-address=127.0.0.1:" + std::to_string(port));
      for (auto& arg : args) ReplaceAll(arg, "{attempt}", std::to_string(attempt));
      auto started = BackgroundProcess::Start(args);
      EXPECT_TRUE(started.ok()) << started.status().ToString();
      if (!started.ok()) return 0;
      process = std::move(*started);
      std::string url = "http://127.0.0.1:" + std::to_string(port) + "/-/ready";
      bool ready = WaitFor(argv[0] + " ready", TestTime::Scaled(30s),
                           [&] {
                             if (!process->Running()) return true;
                             auto got = Subprocess::Run({"curl", "-sf", url});
                             return got.ok() && got->exit_code == 0;
                           })
                       .ok() &&
                   process->Running();
      if (ready) return port;
    }
    ADD_FAILURE() << argv[0] << " did not start: " << process->Output();
    return 0;
  }

  void CreateServiceAccount(const std::string& name) {
    Apply({{"apiVersion", "v1"},
           {"kind", "ServiceAccount"},
           {"metadata", {{"name", name}, {"namespace", ns_}}}});
  }

  void StartPrometheus(const json& scrape_configs) {
    json config = {{"global", {{"scrape_interval", "1s"}, {"evaluation_interval", "1s"}}},
                   {"scrape_configs", scrape_configs}};
    // JSON is YAML: Prometheus reads it as its configuration file.
    std::string file = dir_.Write("prometheus.yml", config.dump(2));
    prometheus_port_ = StartServer(
        prometheus_, {"prometheus", "--config.file=" + file,
                      "--storage.tsdb.path=" + dir_.path().string() + "/prom{attempt}"});
  }

  json PrometheusApi(const std::string& path, const std::string& query = "") const {
    std::vector<std::string> argv{"curl", "-s"};
    if (!query.empty()) argv.insert(argv.end(), {"--data-urlencode", "query=" + query});
    argv.push_back("http://127.0.0.1:" + std::to_string(prometheus_port_) + path);
    auto out = Subprocess::Run(argv);
    if (!out.ok() || out->exit_code != 0) return json{{"status", "curl failed"}};
    return json::parse(out->out, nullptr, false);
  }

  // The active target of `job` (null when Prometheus has none yet).
  json Target(const std::string& job) const {
    json targets = PrometheusApi("/api/v1/targets?state=active");
    if (targets.is_discarded()) return json();
    for (const json& target : targets.value("/data/activeTargets"_json_pointer, json::array())) {
      if (target.value("scrapePool", "") == job) return target;
    }
    return json();
  }

  // Waits until the target of `job` is `health` with lastError containing `error`.
  ::testing::AssertionResult TargetBecomes(const std::string& job, const std::string& health,
                                           const std::string& error) {
    json target;
    auto reached = WaitFor(
        job + " " + health + " (" + error + ")", TestTime::Scaled(30s),
        [&] {
          target = Target(job);
          return target.is_object() && target.value("health", "") == health &&
                 target.value("lastError", "").find(error) != std::string::npos;
        },
        [&] {
          return target.is_object()
                     ? target.value("health", "") + ": " + target.value("lastError", "")
                     : std::string("no target");
        });
    if (reached.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << reached.ToString() << "\n--- controller:\n"
                                         << (controller_ ? controller_->Output() : "");
  }

  // The value of a single-sample PromQL result, or nullopt.
  std::optional<double> Value(const std::string& promql) const {
    json answer = PrometheusApi("/api/v1/query", promql);
    if (answer.is_discarded() || answer.value("status", "") != "success") return std::nullopt;
    const json& result = answer["data"]["result"];
    if (!result.is_array() || result.size() != 1) return std::nullopt;
    return std::stod(result[0]["value"][1].get<std::string>());
  }

  // The verified job and three that must fail: another CA, a token of an
  // account not bound to the metrics reader, no server_name.
  json ScrapeJobs(const json& verified) {
    json jobs = json::array();
    auto add = [&](const std::string& suffix, const std::function<void(json&)>& change) {
      json job = verified;
      if (!suffix.empty()) job["job_name"] = job["job_name"].get<std::string>() + "-" + suffix;
      job["scrape_interval"] = "1s";
      change(job);
      jobs.push_back(job);
    };
    CreateServiceAccount("stranger");
    std::string stranger = Token("stranger");
    add("", [](json&) {});
    add("other-ca", [&](json& job) { job["tls_config"]["ca_file"] = other_ca_file_; });
    add("stranger", [&](json& job) { job["authorization"]["credentials"] = stranger; });
    add("no-server-name", [](json& job) { job["tls_config"].erase("server_name"); });
    return jobs;
  }

  static constexpr const char* kAlertmanager = "alertmanager";

  Source source_ = Source::kHelm;
  std::string ns_;
  bool delete_namespace_ = false;
  TempDir dir_;
  std::vector<json> objects_;
  const json* monitor_ = nullptr;
  std::vector<json> created_;
  std::string cert_dir_, other_ca_file_;
  std::unique_ptr<RunningController> controller_;
  std::unique_ptr<BackgroundProcess> prometheus_, alertmanager_;
  int metrics_port_ = 0, webhook_port_ = 0, prometheus_port_ = 0, alertmanager_port_ = 0;
};

class RenderedScrapeTest : public RenderedMonitoringTest,
                           public ::testing::WithParamInterface<Source> {
 protected:
  void SetUp() override { SetUpFor(GetParam()); }
};

TEST_P(RenderedScrapeTest, PrometheusScrapesThroughTheServiceMonitorOverVerifiedTls) {
  if (Skipped()) return;
  ASSERT_NO_FATAL_FAILURE(MakeServingSecret());
  ASSERT_NO_FATAL_FAILURE(ApplyScraperIdentity());
  ASSERT_NO_FATAL_FAILURE(StartController());
  auto verified = TranslatedScrape();
  ASSERT_TRUE(verified.ok()) << verified.status().ToString();
  json jobs = ScrapeJobs(*verified);
  ASSERT_NO_FATAL_FAILURE(StartPrometheus(jobs));
  ASSERT_NE(prometheus_port_, 0);
  const std::string job = (*verified)["job_name"];
  EXPECT_EQ(job, "serviceMonitor/" + ns_ + "/dra-controller/0");

  EXPECT_TRUE(TargetBecomes(job, "up", ""));
  std::optional<double> series;
  auto found = WaitFor(
      "dra_controller_ series of " + job, TestTime::Scaled(20s),
      [&] {
        series = Value("count({job=\"" + job + "\",__name__=~\"dra_controller_.+\"})");
        return series.value_or(0) > 0;
      },
      [&] { return series ? std::to_string(*series) : std::string("no sample"); });
  EXPECT_TRUE(found.ok()) << found.ToString();
  EXPECT_TRUE(TargetBecomes(job + "-other-ca", "down", "x509: certificate signed by unknown"));
  EXPECT_TRUE(TargetBecomes(job + "-stranger", "down", "403"));
  EXPECT_TRUE(TargetBecomes(job + "-no-server-name", "down", "x509"));
}

// The translation refuses a ServiceMonitor that lost what makes the scrape
// verified, so the scrape above cannot pass on an incomplete one.
TEST_P(RenderedScrapeTest, ServiceMonitorWithoutCaServerNameOrCredentialsIsRefused) {
  if (Skipped()) return;
  auto never = [](const std::string&, const std::string& name, const std::string&) {
    return kube::Result<std::string>(
        kube::Status(kube::StatusCode::kNotFound, "not read: " + name));
  };
  const std::vector<std::pair<std::string, std::string>> losses = {
      {"/spec/endpoints/0/tlsConfig/ca", "no tlsConfig.ca.secret"},
      {"/spec/endpoints/0/tlsConfig/serverName", "no tlsConfig.serverName"},
      {"/spec/endpoints/0/authorization/credentials", "no authorization.credentials"},
      {"/spec/endpoints/0/scheme", "scheme is not https"}};
  for (const auto& [pointer, gap] : losses) {
    json monitor = *monitor_;
    ASSERT_TRUE(monitor.contains(json::json_pointer(pointer))) << pointer << " not rendered";
    json::json_pointer at(pointer);
    monitor[at.parent_pointer()].erase(at.back());
    auto translated =
        ServiceMonitorScrapeConfig::Translate(monitor, "127.0.0.1:1", dir_.path().string(), never);
    ASSERT_FALSE(translated.ok()) << pointer;
    EXPECT_NE(translated.status().message().find(gap), std::string::npos)
        << translated.status().message();
  }
  json insecure = *monitor_;
  insecure["spec"]["endpoints"][0]["tlsConfig"]["insecureSkipVerify"] = true;
  auto translated =
      ServiceMonitorScrapeConfig::Translate(insecure, "127.0.0.1:1", dir_.path().string(), never);
  ASSERT_FALSE(translated.ok());
  EXPECT_NE(translated.status().message().find("insecureSkipVerify"), std::string::npos);
  // As rendered, the only gap is the Secret it cannot read here.
  translated =
      ServiceMonitorScrapeConfig::Translate(*monitor_, "127.0.0.1:1", dir_.path().string(), never);
  ASSERT_FALSE(translated.ok());
  EXPECT_NE(translated.status().message().find("not read: "), std::string::npos)
      << translated.status().message();
}

INSTANTIATE_TEST_SUITE_P(Installs, RenderedScrapeTest,
                         ::testing::Values(Source::kHelm, Source::kReadmeOverlay,
                                           Source::kExampleOverlay),
                         [](const auto& info) { return SourceName(info.param); });

// Alertmanager with manifests/monitoring/alertmanager-dra-controller.yaml,
// changed as its comment says for another namespace (URL and server_name
// name dra-controller.<namespace>.svc, the chart's receiver port), then
// dialing 127.0.0.1; its token is that of the account the chart's
// monitoring.alertmanager values bind to the shipped sender role.
class RenderedAlertmanagerTest : public RenderedMonitoringTest {
 protected:
  void SetUp() override { SetUpFor(Source::kHelm); }

  // The rendered Service's port named `alerts`.
  int ReceiverPort() const {
    const json* service = Find(objects_, "Service", "dra-controller");
    if (service == nullptr) return 0;
    for (const json& port : service->value("/spec/ports"_json_pointer, json::array())) {
      if (port.value("name", "") == "alerts") return port.value("port", 0);
    }
    return 0;
  }

  // The rendered Deployment's --alertmanager-required-labels value.
  std::string RequiredLabels() const {
    const json* deployment = Find(objects_, "Deployment", "dra-controller");
    const std::string flag = "--alertmanager-required-labels=";
    if (deployment == nullptr) return "";
    for (const json& arg :
         deployment->value("/spec/template/spec/containers/0/args"_json_pointer, json::array())) {
      std::string text = arg.get<std::string>();
      if (text.starts_with(flag)) return text.substr(flag.size());
    }
    return "";
  }

  std::string AlertmanagerConfig(const std::string& token_file, const std::string& ca_file) {
    std::string config = ReadFile(Repo("manifests/monitoring/alertmanager-dra-controller.yaml"));
    std::string service = "dra-controller." + ns_ + ".svc";
    std::string port = std::to_string(ReceiverPort());
    EXPECT_EQ(ReplaceAll(config, "dra-controller.dra-system.svc", service), 2) << config;
    EXPECT_EQ(ReplaceAll(config, "https://" + service + ":" + port + "/",
                         "https://127.0.0.1:" + std::to_string(webhook_port_) + "/"),
              1)
        << "the receiver URL does not name the chart's port " << port << ":\n"
        << config;
    EXPECT_EQ(ReplaceAll(config, "/var/run/secrets/dra-controller/token", token_file), 1);
    EXPECT_EQ(ReplaceAll(config, "/var/run/secrets/dra-controller/ca.crt", ca_file), 1);
    EXPECT_EQ(ReplaceAll(config, "group_wait: 10s", "group_wait: 1s"), 1);
    return config;
  }

  // An alert the webhook answers (an unknown GPU: nothing is written).
  json Alert() const {
    json labels = {{"alertname", "GPUFellOffTheBus"},
                   {"dra_controller", "device-health"},
                   {"UUID", "GPU-00000000-0000-0000-0000-00000000beef"},
                   {"Hostname", "no-such-node"},
                   {"gpu", "0"}};
    std::string required = RequiredLabels();
    std::stringstream pairs(required);
    for (std::string pair; std::getline(pairs, pair, ',');) {
      auto eq = pair.find('=');
      if (eq != std::string::npos) labels[pair.substr(0, eq)] = pair.substr(eq + 1);
    }
    return json::array({{{"labels", labels}, {"annotations", {{"summary", "test"}}}}});
  }

  // Alertmanager with the receiver verifying against `ca_file`, sent one alert.
  void StartAlertmanagerAndAlert(const std::string& name, const std::string& ca_file) {
    std::string config =
        AlertmanagerConfig(dir_.Write(name + "-token", Token(kAlertmanager)), ca_file);
    ASSERT_FALSE(HasFailure()) << config;
    std::string file = dir_.Write(name + ".yml", config);
    alertmanager_port_ = StartServer(
        alertmanager_, {"prometheus-alertmanager", "--config.file=" + file,
                        "--storage.path=" + dir_.path().string() + "/" + name + "{attempt}",
                        "--cluster.listen-address="});
    ASSERT_NE(alertmanager_port_, 0);
    auto posted = Subprocess::Run(
        {"curl", "-sf", "-H", "Content-Type: application/json", "--data-binary", "@-",
         "http://127.0.0.1:" + std::to_string(alertmanager_port_) + "/api/v2/alerts"},
        Alert().dump());
    ASSERT_TRUE(posted.ok() && posted->exit_code == 0) << (posted.ok() ? posted->err : "");
  }

  // A counter of Alertmanager's own /metrics (0 when absent).
  double AlertmanagerCounter(const std::string& series) const {
    auto out = Subprocess::Run(
        {"curl", "-s", "http://127.0.0.1:" + std::to_string(alertmanager_port_) + "/metrics"});
    if (!out.ok()) return -1;
    auto at = out->out.find("\n" + series + " ");
    return at == std::string::npos ? 0 : std::stod(out->out.substr(at + series.size() + 2));
  }
};

TEST_F(RenderedAlertmanagerTest, AlertmanagerDeliversToTheWebhookOverVerifiedTls) {
  if (Skipped()) return;
  ASSERT_NO_FATAL_FAILURE(MakeServingSecret());
  ASSERT_NO_FATAL_FAILURE(ApplyScraperIdentity());
  const json* sender = Find(objects_, "ClusterRoleBinding", "dra-controller-alert-sender");
  ASSERT_NE(sender, nullptr);
  ASSERT_EQ(sender->value("/subjects/0/namespace"_json_pointer, std::string()), ns_);
  ASSERT_NO_FATAL_FAILURE(Apply(*Find(objects_, "ClusterRole", "dra-controller-alert-sender")));
  ASSERT_NO_FATAL_FAILURE(Apply(*sender));
  ASSERT_NO_FATAL_FAILURE(CreateServiceAccount(kAlertmanager));

  std::string required = RequiredLabels();
  ASSERT_NO_FATAL_FAILURE(StartController({"--alertmanager-webhook-bind-address", "127.0.0.1:0",
                                           "--alertmanager-required-labels", required}));
  auto verified = TranslatedScrape();
  ASSERT_TRUE(verified.ok()) << verified.status().ToString();
  (*verified)["scrape_interval"] = "1s";
  ASSERT_NO_FATAL_FAILURE(StartPrometheus(json::array({*verified})));

  // Another CA: Alertmanager refuses the certificate and the controller hears nothing.
  ASSERT_NO_FATAL_FAILURE(StartAlertmanagerAndAlert("am-other-ca", other_ca_file_));
  std::string out;
  auto refused = WaitFor(
      "Alertmanager to refuse the certificate", TestTime::Scaled(30s),
      [&] {
        return (out = alertmanager_->Output()).find("x509: certificate signed by unknown") !=
               std::string::npos;
      },
      [&] { return out; });
  ASSERT_TRUE(refused.ok()) << refused.ToString();
  EXPECT_FALSE(Value("sum(dra_controller_alertmanager_requests_total)").has_value());
  alertmanager_->Signal(SIGTERM);
  ASSERT_TRUE(alertmanager_->Wait(10s).has_value());

  // Alertmanager's CA file: ca.crt of the serving Secret, as docs/health.md copies it.
  auto ca = SecretValue(ns_, ServingSecretName(), "ca.crt");
  ASSERT_TRUE(ca.ok()) << ca.status().ToString();
  ASSERT_NO_FATAL_FAILURE(StartAlertmanagerAndAlert("am", dir_.Write("am-ca.crt", *ca)));
  // The controller's answer, seen through the verified scrape.
  const std::string answered = "sum(dra_controller_alertmanager_requests_total{code=\"200\"})";
  std::optional<double> seen;
  auto delivered = WaitFor(
      "the webhook to answer Alertmanager 200", TestTime::Scaled(30s),
      [&] {
        seen = Value(answered);
        return seen.value_or(0) >= 1;
      },
      [&] {
        return (seen ? std::to_string(*seen) : std::string("no sample")) + "\n--- alertmanager:\n" +
               alertmanager_->Output();
      });
  ASSERT_TRUE(delivered.ok()) << delivered.ToString();
  EXPECT_GE(AlertmanagerCounter("alertmanager_notifications_total{integration=\"webhook\"}"), 1);
  EXPECT_EQ(AlertmanagerCounter("alertmanager_notifications_failed_total{integration=\"webhook\"}"),
            0);
}

}  // namespace
}  // namespace dra::testing
