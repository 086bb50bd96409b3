// The shipped manifests are accepted by the real API server, and the
// permissions they grant are enough: dra-controller running with the
// service account's token syncs its inventory and takes the leader Lease
// without a single "forbidden". With --metrics-secure, as the Deployment
// runs it, /metrics answers 200 to an account bound to the
// dra-controller-metrics-reader ClusterRole, 403 to another and 401 without
// a token.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>

#include "src/http/HttpTransport.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class DeploymentManifestsTest : public ClusterTest {
 protected:
  void TearDown() override {
    if (controller_) {
      controller_->Signal(SIGTERM);
      controller_->Wait(15s);
    }
    if (cluster_) {
      (void)cluster_->Kubectl(
          {"delete", "clusterrolebinding", kScraperBinding, "--ignore-not-found"});
    }
    if (applied_ && cluster_) {
      // Waits, so that a rerun does not meet a namespace still terminating.
      (void)cluster_->Kubectl(
          {"delete", "-k", Manifests(), "--ignore-not-found", "--wait=true", "--timeout=90s"});
    }
  }

  static constexpr const char* kScraperBinding = "dra-controller-manifest-test-scraper";

  static std::string Manifests() { return std::string(DRA_REPO_ROOT) + "/manifests"; }

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
    std::string out = controller_->Output();
    auto line = out.find("serving metrics on");
    auto port = line == std::string::npos ? line : out.find("port=", line);
    return port == std::string::npos ? 0 : std::atoi(out.c_str() + port + 5);
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

  std::string last_body_;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<BackgroundProcess> controller_;
  bool applied_ = false;
};

TEST_F(DeploymentManifestsTest, ServiceAccountPermissionsAreEnoughToSyncAndLead) {
  auto applied = cluster_->Kubectl({"apply", "-k", Manifests()});
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

  auto process = BackgroundProcess::Start(
      {std::string(DRA_BINARY_DIR) + "/dra-controller", "run", "--kubeconfig", *kubeconfig,
       "--leader-elect", "--leader-election-id", "dra-controller-manifest-test", "--metrics-secure",
       "--metrics-bind-address", "127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0"});
  ASSERT_TRUE(process.ok()) << process.status().ToString();
  controller_ = std::move(*process);
  auto up = WaitFor(
      "the controller to sync its inventory and lead", 60s,
      [&] {
        std::string out = controller_->Output();
        return out.find("inventory synced") != std::string::npos &&
               out.find("became leader") != std::string::npos;
      },
      [&] { return controller_->Output(); });
  ASSERT_TRUE(up.ok()) << up.ToString();
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
  // The controller's own reviews were allowed by its ClusterRole.
  EXPECT_EQ(controller_->Output().find("orbidden"), std::string::npos) << controller_->Output();

  // Device health (#9) as the service account: a DeviceHealth becomes a
  // DeviceTaintRule (server-side apply), gets status and an Event, and its
  // deletion removes the rule, all without a "forbidden".
  const std::string health = R"({"apiVersion": "dra-controller.dev/v1alpha1",
    "kind": "DeviceHealth", "metadata": {"name": "manifest-test-gpu"},
    "spec": {"driver": "gpu.example.com", "pool": "manifest-test", "device": "gpu-0",
             "state": "Degraded", "reason": "ManifestTest"}})";
  ASSERT_TRUE(cluster_->Apply(health).ok());
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

}  // namespace
}  // namespace dra::testing
