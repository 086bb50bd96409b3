#include <gtest/gtest.h>

#include "controller/check/MetricsReachability.h"
#include "src/http/HttpTransport.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TlsEchoServer.h"

namespace dra::check {
namespace {

using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using dra::testing::TempDir;
using dra::testing::TestCertificates;
using dra::testing::TlsEchoServer;
using nlohmann::json;
using Outcome = CheckResult::Outcome;

MetricsProbe InCluster(std::vector<MetricsAnswer> answers) {
  MetricsProbe probe;
  probe.in_cluster = true;
  probe.service = "dra-system/dra-controller";
  probe.answers = std::move(answers);
  return probe;
}

TEST(MetricsReachabilityTest, OutsideAClusterIsSkippedWithAWarning) {
  MetricsProbe probe;
  probe.service = "dra-system/dra-controller";
  auto r = MetricsReachability::Judge(probe);
  EXPECT_EQ(r.name, "controller-metrics");
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_EQ(r.detail.rfind("skipped (not in-cluster)", 0), 0u) << r.detail;
}

TEST(MetricsReachabilityTest, EveryEndpointServingPasses) {
  auto r = MetricsReachability::Judge(
      InCluster({{"10.0.0.7:8443", 200, ""}, {"10.0.0.8:8443", 200, ""}}));
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.detail,
            "2/2 endpoints of dra-system/dra-controller answered /metrics: 10.0.0.7:8443 200, "
            "10.0.0.8:8443 200");
}

// The scrape carries no credential, so the controller's 401 proves it serves there.
TEST(MetricsReachabilityTest, AnAnswerToACallerWithoutCredentialsPasses) {
  auto r = MetricsReachability::Judge(InCluster(
      {{"10.0.0.7:8443", 401, ""}, {"10.0.0.8:8443", 403, ""}, {"10.0.0.9:8443", 200, ""}}));
  EXPECT_EQ(r.outcome, Outcome::kPass) << r.detail;
}

TEST(MetricsReachabilityTest, AnotherStatusFails) {
  auto r = MetricsReachability::Judge(
      InCluster({{"10.0.0.7:8443", 401, ""}, {"10.0.0.8:8443", 404, ""}}));
  EXPECT_EQ(r.outcome, Outcome::kFail) << r.detail;
}

TEST(MetricsReachabilityTest, AnUnreachableEndpointFails) {
  auto r = MetricsReachability::Judge(
      InCluster({{"10.0.0.7:8443", 200, ""}, {"10.0.0.8:8443", 0, "connection refused"}}));
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("10.0.0.8:8443 unreachable (connection refused)"), std::string::npos)
      << r.detail;
}

TEST(MetricsReachabilityTest, NoEndpointsMissingServiceOrUnreadableSlicesFail) {
  EXPECT_EQ(MetricsReachability::Judge(InCluster({})).outcome, Outcome::kFail);
  auto missing = InCluster({});
  missing.service_missing = true;
  EXPECT_NE(MetricsReachability::Judge(missing).detail.find("no EndpointSlice"), std::string::npos);
  auto forbidden = InCluster({});
  forbidden.error = "Forbidden: endpointslices";
  auto r = MetricsReachability::Judge(forbidden);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_NE(r.detail.find("Forbidden: endpointslices"), std::string::npos);
}

TEST(MetricsReachabilityTest, ReadyAddressesTakeTheNamedPortAndSkipNotReady) {
  json slices = json::parse(R"({"items": [
    {"addressType": "IPv4",
     "ports": [{"name": "other", "port": 1}, {"name": "https-metrics", "port": 8443}],
     "endpoints": [
       {"addresses": ["10.0.0.7"], "conditions": {"ready": true}},
       {"addresses": ["10.0.0.8"], "conditions": {"ready": false}},
       {"addresses": ["10.0.0.9"]},
       {"addresses": []}, {"conditions": {"ready": true}}, "junk"]},
    {"addressType": "IPv6", "ports": [{"name": "https-metrics", "port": 8443}],
     "endpoints": [{"addresses": ["fd00::7"]}]},
    {"addressType": "IPv4", "ports": [{"name": "probes", "port": 8081}],
     "endpoints": [{"addresses": ["10.0.0.10"]}]},
    "junk"]})");
  EXPECT_EQ(MetricsReachability::ReadyAddresses(slices, "https-metrics"),
            (std::vector<std::string>{"10.0.0.7:8443", "10.0.0.9:8443", "[fd00::7]:8443"}));
  EXPECT_TRUE(MetricsReachability::ReadyAddresses(json::array(), "https-metrics").empty());
  EXPECT_TRUE(MetricsReachability::ReadyAddresses(json("x"), "https-metrics").empty());
}

// An API server (plain HTTP, answering with a token) whose EndpointSlices
// name one HTTPS endpoint on this machine.
class MetricsReachabilityProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TestCertificates pki(dir_.path().string());
    auto ca = pki.MakeCa("ca");
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    auto leaf = pki.MakeLeaf(*ca, "server", "server", "IP:127.0.0.1");
    ASSERT_TRUE(leaf.ok()) << leaf.status().ToString();
    auto endpoint = TlsEchoServer::Start(leaf->cert, leaf->key);
    ASSERT_TRUE(endpoint.ok()) << endpoint.status().ToString();
    endpoint_ = std::move(*endpoint);
    auto api = ScriptedHttpServer::Start();
    ASSERT_TRUE(api.ok());
    api_ = std::move(*api);
    json slices = {{"items",
                    {{{"addressType", "IPv4"},
                      {"ports", {{{"name", "https-metrics"}, {"port", endpoint_->port()}}}},
                      {"endpoints", {{{"addresses", {"127.0.0.1"}}}}}}}}};
    api_->AddRoute(Route::Prefix("GET", "/apis/discovery.k8s.io/"),
                   {ScriptedResponse::Json(200, slices.dump())});
    kube::RestConfig config;
    config.server = api_->Url();
    config.token = kube::TokenSource::Static("service-account-token");
    auto transport = kube::HttpTransport::Create(config);
    ASSERT_TRUE(transport.ok());
    client_ = std::make_unique<kube::RestClient>(std::move(*transport));
  }

  TempDir dir_;
  std::unique_ptr<TlsEchoServer> endpoint_;
  std::unique_ptr<ScriptedHttpServer> api_;
  std::unique_ptr<kube::RestClient> client_;
};

TEST_F(MetricsReachabilityProbeTest, ScrapesEveryEndpointWithoutACredential) {
  auto probe = MetricsReachability::ProbeEndpoints(*client_, "dra-system");
  ASSERT_EQ(probe.answers.size(), 1u) << probe.error;
  EXPECT_EQ(probe.answers[0].status, 200) << probe.answers[0].error;
  std::string request = endpoint_->LastRequest();
  ASSERT_NE(request.find("GET /metrics"), std::string::npos) << request;
  for (char& c : request) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(request.find("authorization"), std::string::npos) << request;
  EXPECT_EQ(request.find("service-account-token"), std::string::npos) << request;
  EXPECT_EQ(MetricsReachability::Judge(probe).outcome, Outcome::kPass);
}

TEST_F(MetricsReachabilityProbeTest, TheNamespaceIsEncodedInThePath) {
  (void)MetricsReachability::ProbeEndpoints(*client_, "a b/c?d");
  auto seen = api_->Requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(
      seen[0].target.rfind("/apis/discovery.k8s.io/v1/namespaces/a%20b%2Fc%3Fd/endpointslices?", 0),
      0u)
      << seen[0].target;
}

}  // namespace
}  // namespace dra::check
