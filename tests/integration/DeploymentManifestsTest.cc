// The shipped manifests are accepted by the real API server, and the
// permissions they grant are enough: dra-controller running with the
// service account's token syncs its inventory and takes the leader Lease
// without a single "forbidden". With --metrics-secure, as the Deployment
// runs it, /metrics answers 200 to an account bound to the
// dra-controller-metrics-reader ClusterRole (the monitoring component's
// scraper token Secret included), 403 to another and 401 without a token. `dra-controller check`
// run as in a Pod reaches /metrics through the metrics Service's endpoints.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "src/http/HttpTransport.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/ControllerUnderTest.h"
#include "tests/support/KustomizeOverlay.h"
#include "tests/support/RunningController.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class DeploymentManifestsTest : public ClusterTest {
 protected:
  void TearDown() override {
    if (controller_) controller_->Stop();
    if (cluster_) {
      (void)cluster_->Kubectl(
          {"delete", "clusterrolebinding", kScraperBinding, "--ignore-not-found"});
      (void)cluster_->Kubectl(
          {"delete", "clusterrolebinding", kCheckerBinding, "--ignore-not-found"});
    }
    if (scraper_applied_ && cluster_) {
      (void)cluster_->Kubectl({"delete", "-f", ShippedScraper(), "--ignore-not-found"});
    }
    if (applied_ && cluster_) {
      // Waits, so that a rerun does not meet a namespace still terminating.
      (void)cluster_->Kubectl(
          {"delete", "-k", Manifests(), "--ignore-not-found", "--wait=true", "--timeout=90s"});
    }
  }

  static constexpr const char* kScraperBinding = "dra-controller-manifest-test-scraper";
  static constexpr const char* kCheckerBinding = "dra-controller-manifest-test-checker";

  static std::string Manifests() { return std::string(DRA_REPO_ROOT) + "/manifests"; }

  // The documented install: the CRD on its own, then manifests/.
  kube::Result<ProcessOutput> ApplyInstall() {
    auto crds = cluster_->Kubectl({"apply", "-k", std::string(DRA_REPO_ROOT) + "/crds"});
    if (!crds.ok()) return crds;
    auto kind = cluster_->WaitForDeviceHealthKind();
    if (!kind.ok()) return kind;
    return cluster_->Kubectl({"apply", "-k", Manifests()});
  }

  // A kubeconfig for the same API server that authenticates as `token`.
  kube::Result<std::string> ServiceAccountKubeconfig(const std::string& token) {
    auto view = cluster_->Kubectl({"config", "view", "--raw", "--minify", "-o", "json"});
    if (!view.ok()) return view.status();
    json admin = json::parse(view->out, nullptr, false);
    if (admin.is_discarded() || !admin.contains("clusters")) {
      return kube::Status(kube::StatusCode::kInternal, "unreadable admin kubeconfig");
    }
    json config = {
        {"apiVersion", "v1"},
        {"kind", "Config"},
        {"clusters",
         json::array({{{"name", "test"}, {"cluster", admin["clusters"][0]["cluster"]}}})},
        {"users", json::array({{{"name", "dra-controller"}, {"user", {{"token", token}}}}})},
        {"contexts",
         json::array(
             {{{"name", "sa"},
               {"context",
                {{"cluster", "test"}, {"user", "dra-controller"}, {"namespace", "dra-system"}}}}})},
        {"current-context", "sa"}};
    return dir_->Write("kubeconfig", config.dump());
  }

  std::string Token(const std::string& account) {
    auto token = cluster_->Kubectl({"create", "token", account, "-n", "dra-system"});
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    if (!token.ok()) return "";
    return token->out.substr(0, token->out.find_last_not_of("\n") + 1);
  }

  // The port from the "serving metrics on ... port=N" log line; 0 if absent.
  int MetricsPort() const {
    auto port = controller_->metrics_port();
    return port.ok() ? *port : 0;
  }

  // The HTTP status of GET /metrics over HTTPS (self-signed: not verified);
  // 0 when the request failed.
  int Scrape(int port, const std::string& token) {
    kube::RestConfig config;
    config.server = "https://127.0.0.1:" + std::to_string(port);
    config.insecure_skip_tls_verify = true;
    config.request_timeout = 10s;
    auto transport = kube::HttpTransport::Create(config);
    if (!transport.ok()) return 0;
    kube::HttpRequest request;
    request.path = "/metrics";
    if (!token.empty()) request.headers.emplace_back("Authorization", "Bearer " + token);
    auto reply = (*transport)->Send(request);
    last_body_ = reply.ok() ? reply->body : reply.status().ToString();
    return reply.ok() ? reply->status : 0;
  }

  // Service accounts "metrics-scraper" (bound to dra-controller-metrics-reader)
  // and "metrics-stranger" (bound to nothing).
  void CreateScrapers() {
    for (const char* account : {"metrics-scraper", "metrics-stranger"}) {
      auto created = cluster_->Kubectl({"create", "serviceaccount", account, "-n", "dra-system"});
      ASSERT_TRUE(created.ok()) << created.status().ToString();
    }
    auto bound = cluster_->Kubectl({"create", "clusterrolebinding", kScraperBinding,
                                    "--clusterrole", "dra-controller-metrics-reader",
                                    "--serviceaccount", "dra-system:metrics-scraper"});
    ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  }

  // manifests/monitoring/metrics-scraper.yaml applied; the token the API
  // server's token controller puts into its Secret ("" if none in time).
  std::string ShippedScraperToken() {
    scraper_applied_ = true;
    auto applied = cluster_->Kubectl({"apply", "-f", ShippedScraper()});
    EXPECT_TRUE(applied.ok()) << applied.status().ToString();
    std::string token;
    auto filled = WaitFor("the scraper's token Secret to be filled", 30s, [&] {
      auto got = cluster_->Kubectl({"get", "secret", "dra-controller-metrics-scraper-token", "-n",
                                    "dra-system", "-o", "jsonpath={.data.token}"});
      if (!got.ok() || got->out.empty()) return false;
      auto decoded = Subprocess::Run({"base64", "-d"}, got->out, 10s);
      if (!decoded.ok() || decoded->exit_code != 0) return false;
      token = decoded->out;
      return true;
    });
    EXPECT_TRUE(filled.ok()) << filled.ToString();
    return token;
  }

  static std::string ShippedScraper() {
    return std::string(DRA_REPO_ROOT) + "/manifests/monitoring/metrics-scraper.yaml";
  }

  // The first non-loopback address of this machine ("" if none): Endpoint
  // addresses may not be loopback.
  static std::string HostAddress() {
    auto out = Subprocess::Run({"hostname", "-I"}, "", std::chrono::seconds(10));
    if (!out.ok() || out->exit_code != 0) return "";
    std::string first = out->out.substr(0, out->out.find_first_of(" \n"));
    return first.find(':') == std::string::npos ? first : "";
  }

  // A service account directory (token, ca.crt, namespace) for `account`.
  std::string MountableServiceAccount(const std::string& account) {
    auto ca = cluster_->Kubectl({"config", "view", "--raw", "--minify", "-o",
                                 "jsonpath={.clusters[0].cluster.certificate-authority-data}"});
    EXPECT_TRUE(ca.ok());
    auto pem = Subprocess::Run({"base64", "-d"}, ca.ok() ? ca->out : "", std::chrono::seconds(10));
    EXPECT_TRUE(pem.ok());
    dir_->Write("token", Token(account));
    dir_->Write("ca.crt", pem.ok() ? pem->out : "");
    dir_->Write("namespace", "dra-system");
    return dir_->path().string();
  }

  // `dra-controller check -o json` as in a Pod (the service account at the
  // in-cluster path in a private mount namespace, KUBERNETES_SERVICE_*):
  // the controller-metrics row, or {} when check printed no JSON.
  json InClusterCheckRow(const std::string& sa_dir) {
    auto server = cluster_->Kubectl(
        {"config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}"});
    if (!server.ok()) return json::object();
    std::string hostport = server->out.substr(server->out.find("//") + 2);
    std::string script =
        "mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount && "
        "mount --bind \"$0\" /run/secrets/kubernetes.io/serviceaccount && exec \"$@\"";
    auto out = Subprocess::Run(
        {"unshare", "--mount", "--propagation", "private", "env", "-u", "KUBECONFIG",
         "KUBERNETES_SERVICE_HOST=" + hostport.substr(0, hostport.rfind(':')),
         "KUBERNETES_SERVICE_PORT=" + hostport.substr(hostport.rfind(':') + 1), "sh", "-c", script,
         sa_dir, std::string(DRA_BINARY_DIR) + "/dra-controller", "check", "-o", "json"},
        "", std::chrono::seconds(60));
    last_body_ = out.ok() ? out->out + out->err : out.status().ToString();
    json doc = json::parse(out.ok() ? out->out : "", nullptr, false);
    if (doc.is_discarded()) return json::object();
    for (const auto& row : doc.value("results", json::array())) {
      if (row.value("name", "") == "controller-metrics") return row;
    }
    return json::object();
  }

  std::string last_body_;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<RunningController> controller_;
  bool applied_ = false;
  bool scraper_applied_ = false;
};

TEST_F(DeploymentManifestsTest, ServiceAccountPermissionsAreEnoughToSyncAndLead) {
  auto applied = ApplyInstall();
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  applied_ = true;
  auto deployment = cluster_->GetJson({"get", "deployment", "dra-controller", "-n", "dra-system"});
  ASSERT_TRUE(deployment.ok()) << deployment.status().ToString();
  EXPECT_EQ((*deployment)["spec"]["template"]["spec"]["serviceAccountName"], "dra-controller");
  const json& container = (*deployment)["spec"]["template"]["spec"]["containers"][0];
  json args = container["args"];
  EXPECT_NE(std::find(args.begin(), args.end(), "--metrics-secure"), args.end()) << args;
  EXPECT_NE(std::find(args.begin(), args.end(), "--metrics-bind-address=:8443"), args.end())
      << args;
  EXPECT_EQ(container["ports"][0],
            json({{"name", "https-metrics"}, {"containerPort", 8443}, {"protocol", "TCP"}}));

  auto token = cluster_->Kubectl({"create", "token", "dra-controller", "-n", "dra-system"});
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  std::string bearer = token->out.substr(0, token->out.find_last_not_of("\n") + 1);
  dir_ = std::make_unique<TempDir>();
  auto kubeconfig = ServiceAccountKubeconfig(bearer);
  ASSERT_TRUE(kubeconfig.ok()) << kubeconfig.status().ToString();

  RunningController::Options options;
  options.kubeconfig = *kubeconfig;
  options.args = {"--leader-elect", "--leader-election-id", "dra-controller-manifest-test",
                  "--metrics-secure"};
  options.wait_for = {"inventory synced", "became leader"};
  options.what = "the controller to sync its inventory and lead";
  auto started = RunningController::Start(options);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  controller_ = std::move(*started);
  std::string out = controller_->Output();
  EXPECT_EQ(out.find("orbidden"), std::string::npos) << out;  // Forbidden or forbidden
  auto lease =
      cluster_->GetJson({"get", "lease", "dra-controller-manifest-test", "-n", "dra-system"});
  ASSERT_TRUE(lease.ok()) << lease.status().ToString();
  EXPECT_NE((*lease)["spec"].value("holderIdentity", ""), "");

  // What the Deployment's --metrics-secure means for scrapers.
  int port = MetricsPort();
  ASSERT_GT(port, 0) << out;
  ASSERT_NO_FATAL_FAILURE(CreateScrapers());
  std::string scraper = Token("metrics-scraper");
  std::string stranger = Token("metrics-stranger");
  EXPECT_EQ(Scrape(port, ""), 401) << last_body_;
  // RBAC reaches the apiserver's authorizer through an informer: allow a moment.
  auto allowed = WaitFor(
      "the scraper to be allowed", 30s, [&] { return Scrape(port, scraper) == 200; },
      [&] { return last_body_; });
  ASSERT_TRUE(allowed.ok()) << allowed.ToString() << "\n" << controller_->Output();
  EXPECT_NE(last_body_.find("# TYPE"), std::string::npos) << last_body_;
  EXPECT_EQ(Scrape(port, stranger), 403) << last_body_;
  // The token the monitoring component's ServiceMonitor sends.
  std::string component = ShippedScraperToken();
  ASSERT_FALSE(component.empty());
  auto shipped = WaitFor(
      "the component's scraper to be allowed", 30s, [&] { return Scrape(port, component) == 200; },
      [&] { return last_body_; });
  EXPECT_TRUE(shipped.ok()) << shipped.ToString();
  // The controller's own reviews were allowed by its ClusterRole.
  EXPECT_EQ(controller_->Output().find("orbidden"), std::string::npos) << controller_->Output();

  // Device health (#9) as the service account: a DeviceHealth becomes a
  // DeviceTaintRule (server-side apply), gets status and an Event, and its
  // deletion removes the rule, all without a "forbidden".
  const std::string health = R"({"apiVersion": "dra-controller.dev/v1alpha1",
    "kind": "DeviceHealth", "metadata": {"name": "manifest-test-gpu"},
    "spec": {"driver": "gpu.example.com", "pool": "manifest-test", "device": "gpu-0",
             "state": "Degraded", "reason": "ManifestTest"}})";
  auto kind = cluster_->WaitForDeviceHealthKind();
  ASSERT_TRUE(kind.ok()) << kind.ToString();
  auto health_applied = cluster_->Apply(health);
  ASSERT_TRUE(health_applied.ok()) << health_applied.ToString();
  auto rule = WaitFor(
      "the DeviceTaintRule and the Tainted condition", 30s,
      [&] {
        auto got = cluster_->GetJson({"get", "devicehealth", "manifest-test-gpu"});
        auto rule = cluster_->Kubectl({"get", "devicetaintrule", "devicehealth-manifest-test-gpu"});
        return got.ok() && rule.ok() &&
               got->value("status", json::object()).value("ruleName", "") ==
                   "devicehealth-manifest-test-gpu";
      },
      [&] { return controller_->Output(); });
  EXPECT_TRUE(rule.ok()) << rule.ToString();
  auto event = WaitFor("an Event on the DeviceHealth", 30s, [&] {
    auto events = cluster_->Kubectl({"get", "events", "-A", "--field-selector",
                                     "involvedObject.name=manifest-test-gpu", "-o", "name"});
    return events.ok() && !events->out.empty();
  });
  EXPECT_TRUE(event.ok()) << event.ToString();
  ASSERT_TRUE(cluster_->Kubectl({"delete", "devicehealth", "manifest-test-gpu"}).ok());
  auto gone = WaitFor("the DeviceTaintRule to go", 30s, [&] {
    auto got = cluster_->Kubectl({"get", "devicetaintrule", "devicehealth-manifest-test-gpu",
                                  "--ignore-not-found", "-o", "name"});
    return got.ok() && got->out.empty();
  });
  EXPECT_TRUE(gone.ok()) << gone.ToString();
  EXPECT_EQ(controller_->Output().find("orbidden"), std::string::npos) << controller_->Output();
}

// Device health off as docs/deploy.md shows it (manifests/base with the
// no-device-health component): the Deployment's own args, run with the
// service account's token, sync and lead without a "forbidden" on base's
// RBAC alone; the webhook's flag is harmless (the log says it is off), and the
// account may write no DeviceTaintRule and no ResourceClaim.
TEST_F(DeploymentManifestsTest, HealthOffRunsOnBaseRbacAlone) {
  auto crds = cluster_->Kubectl({"apply", "-k", std::string(DRA_REPO_ROOT) + "/crds"});
  ASSERT_TRUE(crds.ok()) << crds.status().ToString();
  KustomizeOverlay overlay({"manifests/base"}, {"manifests/features/no-device-health"});
  applied_ = true;
  auto applied = cluster_->Kubectl({"apply", "-k", overlay.path()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  auto deployment = cluster_->GetJson({"get", "deployment", "dra-controller", "-n", "dra-system"});
  ASSERT_TRUE(deployment.ok()) << deployment.status().ToString();
  std::vector<std::string> argv{ControllerUnderTest::Binary()};
  for (const json& arg : (*deployment)["spec"]["template"]["spec"]["containers"][0]["args"]) {
    std::string value = arg.get<std::string>();
    if (value.find("-bind-address=") != std::string::npos) {
      value = value.substr(0, value.find('=')) + "=127.0.0.1:0";  // no fixed ports here
    }
    argv.push_back(value);
  }
  EXPECT_EQ(argv.back(), "--controllers=*,-device-health");
  dir_ = std::make_unique<TempDir>();
  auto kubeconfig = ServiceAccountKubeconfig(Token("dra-controller"));
  ASSERT_TRUE(kubeconfig.ok()) << kubeconfig.status().ToString();
  argv.insert(argv.end(), {"--kubeconfig", *kubeconfig, "--leader-election-id",
                           "dra-controller-manifest-test"});
  RunningController::Options waits;
  waits.wait_for = {"inventory synced", "became leader"};
  waits.what = "the controller to sync its inventory and lead";
  auto started = RunningController::StartArgv(argv, waits);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  controller_ = std::move(*started);
  std::string out = controller_->Output();
  EXPECT_EQ(out.find("orbidden"), std::string::npos) << out;
  EXPECT_NE(out.find("feature alertmanager-webhook is off"), std::string::npos) << out;
  EXPECT_EQ(out.find("serving the Alertmanager webhook"), std::string::npos) << out;
  auto can = [&](const std::string& verb, const std::string& resource) {
    auto answer = cluster_->Kubectl({"auth", "can-i", verb, resource, "-A", "--as",
                                     "system:serviceaccount:dra-system:dra-controller"});
    return answer.ok() && answer->out.rfind("yes", 0) == 0;
  };
  EXPECT_TRUE(can("list", "pods"));  // the question is asked right
  EXPECT_FALSE(can("create", "devicetaintrules.resource.k8s.io"));
  EXPECT_FALSE(can("delete", "resourceclaims.resource.k8s.io"));
  EXPECT_FALSE(can("update", "resourceclaims.resource.k8s.io"));
}

TEST_F(DeploymentManifestsTest, InClusterCheckReachesMetricsThroughTheService) {
  auto probe = Subprocess::Run({"unshare", "--mount", "true"}, "", 10s);
  if (!probe.ok() || probe->exit_code != 0) GTEST_SKIP() << "unshare --mount is not permitted";
  std::string address = HostAddress();
  if (address.empty()) GTEST_SKIP() << "no non-loopback IPv4 address for an EndpointSlice";
  auto applied = ApplyInstall();
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  applied_ = true;
  dir_ = std::make_unique<TempDir>();

  // The controller (as admin: its own RBAC is another test's business)
  // serving /metrics on this machine's address, which the Service's
  // EndpointSlice names as a kubelet-less stand-in for a Pod IP.
  RunningController::Options options;
  options.kubeconfig = cluster_->kubeconfig();
  options.metrics_bind_address = address + ":0";
  options.args = {"--metrics-secure"};
  options.wait_for_ports = {RunningController::Port::kMetrics};
  options.what = "the metrics port";
  options.deadline = 30s;
  auto started = RunningController::Start(options);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  controller_ = std::move(*started);
  json slice = {{"apiVersion", "discovery.k8s.io/v1"},
                {"kind", "EndpointSlice"},
                {"metadata",
                 {{"name", "dra-controller-manifest-test"},
                  {"namespace", "dra-system"},
                  {"labels", {{"kubernetes.io/service-name", "dra-controller"}}}}},
                {"addressType", "IPv4"},
                {"ports", {{{"name", "https-metrics"}, {"port", MetricsPort()}}}},
                {"endpoints", {{{"addresses", {address}}, {"conditions", {{"ready", true}}}}}}};
  ASSERT_TRUE(cluster_->Apply(slice.dump()).ok());

  // `check` runs as "checker": it may list the EndpointSlices and get /metrics,
  // which it asks without a credential all the same (answered 401).
  ASSERT_TRUE(cluster_->Kubectl({"create", "serviceaccount", "checker", "-n", "dra-system"}).ok());
  ASSERT_TRUE(cluster_
                  ->Kubectl({"create", "role", "checker", "-n", "dra-system", "--verb=list",
                             "--resource=endpointslices.discovery.k8s.io"})
                  .ok());
  ASSERT_TRUE(cluster_
                  ->Kubectl({"create", "rolebinding", "checker", "-n", "dra-system", "--role",
                             "checker", "--serviceaccount", "dra-system:checker"})
                  .ok());
  ASSERT_TRUE(
      cluster_
          ->Kubectl({"create", "clusterrolebinding", kCheckerBinding, "--clusterrole",
                     "dra-controller-metrics-reader", "--serviceaccount", "dra-system:checker"})
          .ok());
  std::string sa_dir = MountableServiceAccount("checker");
  json row;
  auto passed = WaitFor(
      "check's controller-metrics row to pass in-cluster", 60s,
      [&] {
        row = InClusterCheckRow(sa_dir);
        return row.value("result", "") == "pass";
      },
      [&] { return row.dump() + "\n" + last_body_; });
  ASSERT_TRUE(passed.ok()) << passed.ToString();
  std::string endpoint = address + ":" + std::to_string(MetricsPort());
  EXPECT_EQ(row.value("detail", ""),
            "1/1 endpoints of dra-system/dra-controller answered /metrics: " + endpoint + " 401");
  std::cout << "in-cluster check: " << row.dump() << "\n";

  // Outside a cluster the row is skipped; with the controller gone it fails.
  auto outside = Subprocess::Run({std::string(DRA_BINARY_DIR) + "/dra-controller", "check",
                                  "--kubeconfig", cluster_->kubeconfig(), "-o", "json"},
                                 "", 60s);
  ASSERT_TRUE(outside.ok());
  EXPECT_NE(outside->out.find("skipped (not in-cluster)"), std::string::npos) << outside->out;
  ASSERT_TRUE(controller_->Stop().has_value());
  controller_.reset();
  row = InClusterCheckRow(sa_dir);
  EXPECT_EQ(row.value("result", ""), "fail") << row.dump() << "\n" << last_body_;
  EXPECT_NE(row.value("detail", "").find(endpoint + " unreachable"), std::string::npos) << row;
}

}  // namespace
}  // namespace dra::testing
