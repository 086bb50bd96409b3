#include <gtest/gtest.h>

#include "tests/support/RunningController.h"

namespace dra::testing {
namespace {

const std::string kLog =
    "I serving probes on 127.0.0.1:0 (/healthz, /readyz) port=41001\n"
    "I serving metrics on 127.0.0.1:0 (/metrics) port=41002\n"
    "I inventory synced\n";

TEST(RunningControllerTest, ReadsBothPortsFromTheLog) {
  auto metrics = RunningController::MetricsPortIn(kLog);
  auto probes = RunningController::ProbePortIn(kLog);
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  ASSERT_TRUE(probes.ok()) << probes.status().ToString();
  EXPECT_EQ(*metrics, 41002);
  EXPECT_EQ(*probes, 41001);
}

TEST(RunningControllerTest, ReadsTheSecureMetricsPort) {
  auto metrics = RunningController::MetricsPortIn(
      "serving metrics on 10.0.0.7:0 (/metrics, HTTPS, authenticated and authorized) "
      "port=8443\n");
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  EXPECT_EQ(*metrics, 8443);
}

TEST(RunningControllerTest, ReadsTheWebhookPortAndEachPortByName) {
  std::string log = kLog +
                    "I serving the Alertmanager webhook on 127.0.0.1:0 (POST /alertmanager, HTTPS) "
                    "port=41003\n";
  auto webhook = RunningController::PortIn(log, RunningController::Port::kWebhook);
  ASSERT_TRUE(webhook.ok()) << webhook.status().ToString();
  EXPECT_EQ(*webhook, 41003);
  EXPECT_EQ(*RunningController::PortIn(log, RunningController::Port::kMetrics), 41002);
  EXPECT_EQ(*RunningController::PortIn(log, RunningController::Port::kProbes), 41001);
  EXPECT_FALSE(RunningController::PortIn(kLog, RunningController::Port::kWebhook).ok());
}

TEST(RunningControllerTest, AMissingPortIsAnErrorNamingTheLog) {
  auto metrics = RunningController::MetricsPortIn("I inventory synced\n");
  ASSERT_FALSE(metrics.ok());
  EXPECT_EQ(metrics.status().code(), kube::StatusCode::kNotFound);
  EXPECT_NE(metrics.status().ToString().find("inventory synced"), std::string::npos);
  EXPECT_FALSE(RunningController::ProbePortIn(kLog.substr(kLog.find('\n') + 1)).ok());
}

TEST(RunningControllerTest, ArgvPutsTheTestsFlagsAfterTheBindAddresses) {
  RunningController::Options options;
  options.kubeconfig = "/tmp/kc";
  options.metrics_bind_address = "0";
  options.args = {"--health-preview", "3s"};
  EXPECT_EQ(RunningController::Argv("/bin/dra-controller", options),
            (std::vector<std::string>{"/bin/dra-controller", "run", "--kubeconfig", "/tmp/kc",
                                      "--metrics-bind-address", "0", "--health-probe-bind-address",
                                      "127.0.0.1:0", "--health-preview", "3s"}));
}

TEST(RunningControllerTest, SplitsCurlsAnswerIntoBodyAndStatus) {
  auto ok = RunningController::ParseCurlAnswer("ok\nline two\n200");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->body, "ok\nline two");
  auto empty = RunningController::ParseCurlAnswer("\n503");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->status, 503);
  EXPECT_EQ(empty->body, "");
  auto refused = RunningController::ParseCurlAnswer("\n000");
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->status, 0);
}

TEST(RunningControllerTest, AnAnswerWithoutAStatusIsAnError) {
  EXPECT_FALSE(RunningController::ParseCurlAnswer("").ok());
  EXPECT_FALSE(RunningController::ParseCurlAnswer("body only").ok());
  EXPECT_FALSE(RunningController::ParseCurlAnswer("body\n2000").ok());
}

}  // namespace
}  // namespace dra::testing
