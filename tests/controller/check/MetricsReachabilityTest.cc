#include <gtest/gtest.h>

#include "controller/check/MetricsReachability.h"

namespace dra::check {
namespace {

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
            "2/2 endpoints of dra-system/dra-controller served /metrics: 10.0.0.7:8443 200, "
            "10.0.0.8:8443 200");
}

TEST(MetricsReachabilityTest, UnauthorizedCallerWarnsAndNamesTheRoleToBind) {
  auto r = MetricsReachability::Judge(
      InCluster({{"10.0.0.7:8443", 403, ""}, {"10.0.0.8:8443", 200, ""}}));
  EXPECT_EQ(r.outcome, Outcome::kWarn);
  EXPECT_NE(r.detail.find("dra-controller-metrics-reader"), std::string::npos) << r.detail;
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

}  // namespace
}  // namespace dra::check
