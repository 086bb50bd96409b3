// The version matrix: every job against the control plane in front of it,
// whichever release that is (`make test`: v1.37.2 as it comes; `make
// test-versions`: v1.34.4 to v1.37.2, their DRA gates off and on). What a job
// must do here is decided as the product decides it, from what the cluster
// serves (API discovery, a server-side dry run) and the version table
// (api::DraReleases), never from the version number alone: `check` names each
// job's verdict, `run` gets ready on defaults, the commands read a fake fleet,
// /metrics counts it, and a DeviceHealth either taints its device at the
// version the cluster serves DeviceTaintRules or says in its status which
// gate it waits for.
#include <gtest/gtest.h>

#include <sstream>

#include "controller/api/DraReleases.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/ControllerUnderTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RunningController.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "vm-test.example.com";
constexpr const char* kResource = "example.com/vm-test-gpu";
constexpr const char* kHealth = "vm-test-gpu-0";
const std::vector<std::string> kFleet{"vm-a:2:80Gi:gpu-vm-a"};

class VersionMatrixTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    ASSERT_TRUE(cluster_->InstallDeviceHealthCrd().ok());
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(
        cluster_->Apply(DeviceClassManifest(kClass, kResource, FakeGpuModelSelector("gpu-vm-a")))
            .ok());
    ReadCluster();
  }

  void TearDown() override {
    if (controller_) controller_->Stop();
    if (!cluster_ || IsSkipped()) return;
    (void)cluster_->Kubectl({"delete", "devicehealth", kHealth, "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  // The release, where DeviceTaintRules are served, whether DeviceClasses
  // keep extendedResourceName: asked of the API server as a person would.
  void ReadCluster() {
    auto version = cluster_->Kubectl({"get", "--raw", "/version"});
    ASSERT_TRUE(version.ok());
    git_version_ = json::parse(version->out).value("gitVersion", "");
    auto minor = api::DraReleases::Minor(git_version_);
    ASSERT_TRUE(minor.has_value()) << git_version_;
    minor_ = *minor;
    for (const char* v : {"v1", "v1beta2", "v1alpha3"}) {
      auto list = cluster_->Kubectl({"get", "--raw", std::string("/apis/resource.k8s.io/") + v});
      if (list.ok() && list->out.find("\"name\":\"devicetaintrules\"") != std::string::npos) {
        rules_version_ = v;
        break;
      }
    }
    std::string probe =
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: vm-probe}\n"
        "spec: {extendedResourceName: example.com/vm-probe}\n";
    auto dry = cluster_->Kubectl(
        {"create", "--dry-run=server", "-f", "-", "-o", "jsonpath={.spec.extendedResourceName}"},
        probe);
    extended_kept_ = dry.ok() && dry->out == "example.com/vm-probe";
    std::cout << "[ cluster  ] " << git_version_ << ": DeviceTaintRules at "
              << (rules_version_.empty() ? "(not served)" : rules_version_)
              << ", extendedResourceName " << (extended_kept_ ? "kept" : "dropped") << "\n";
  }

  void StartController() {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.args = {
        "--health-preview", "0s", "--health-hold-off", "2s", "--health-storm-guard-percent", "100"};
    options.wait_for = {"inventory synced"};
    options.what = "the controller to sync its inventory";
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
    auto metrics = controller_->metrics_port();
    auto probes = controller_->probe_port();
    EXPECT_TRUE(metrics.ok()) << metrics.status().ToString();
    EXPECT_TRUE(probes.ok()) << probes.status().ToString();
    metrics_port_ = metrics.ok() ? *metrics : 0;
    probe_port_ = probes.ok() ? *probes : 0;
  }

  json CheckRows() {
    auto run = Subprocess::Run({ControllerUnderTest::Binary(), "check", "-o", "json",
                                "--kubeconfig", cluster_->kubeconfig()});
    EXPECT_TRUE(run.ok());
    json rows = json::object();
    if (!run.ok()) return rows;
    json doc = json::parse(run->out, nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << run->out << run->err;
    if (doc.is_discarded()) return rows;
    for (const auto& r : doc["results"]) rows[r.value("name", "")] = r;
    return rows;
  }

  std::string Condition(const std::string& type, const std::string& field) {
    auto got = cluster_->GetJson({"get", "devicehealth", kHealth});
    if (!got.ok()) return "";
    for (const auto& c : got->value("/status/conditions"_json_pointer, json::array())) {
      if (c.value("type", "") == type) return c.value(field, "");
    }
    return "";
  }

  std::string git_version_;
  int minor_ = 0;
  std::string rules_version_;  // "" when no version serves DeviceTaintRules
  bool extended_kept_ = false;
  std::unique_ptr<RunningController> controller_;
  // dra_controller_feature_enabled as this release and its served APIs make it.
  std::vector<std::string> ExpectedFeatureStates() const {
    auto series = [](const std::string& feature, const std::string& reason, int value) {
      return "dra_controller_feature_enabled{feature=\"" + feature + "\",reason=\"" + reason +
             "\"} " + std::to_string(value);
    };
    std::vector<std::string> out;
    if (rules_version_.empty()) {
      out.push_back(series("device-health", "TaintRulesNotServed", 0));
      out.push_back(series("extended-resource-evictions", "HealthNotEnforced", 0));
    } else {
      out.push_back(series("device-health", "Enforced", 1));
      bool cluster_evicts = api::DraReleases::EvictsExtendedResourcePods(minor_);
      out.push_back(series("extended-resource-evictions",
                           cluster_evicts ? "ClusterEvicts" : "ClusterDoesNotEvict",
                           cluster_evicts ? 0 : 1));
    }
    bool by_default =
        api::DraReleases::In(api::DraCapability::kExtendedResources, minor_).on_by_default;
    out.push_back(series("extended-resources", by_default ? "Wired" : "GateOffByDefault", 1));
    out.push_back(series("allocation-metrics", "Wired", 1));
    return out;
  }

  static std::string Grep(const std::string& text, const std::string& needle) {
    std::string out, line;
    std::istringstream in(text);
    while (std::getline(in, line)) {
      if (line.find(needle) != std::string::npos) out += line + "\n";
    }
    return out;
  }

  int metrics_port_ = 0;
  int probe_port_ = 0;
};

TEST_F(VersionMatrixTest, CheckNamesWhatEachJobHasHere) {
  if (Skipped()) return;
  json rows = CheckRows();
  ASSERT_TRUE(rows.contains("job-device-health")) << rows.dump();
  EXPECT_EQ(rows["kubernetes-version"].value("result", ""), "pass") << rows.dump();
  EXPECT_EQ(rows["dra-api-served"].value("result", ""), "pass") << rows.dump();
  const json& health = rows["job-device-health"];
  auto needs = api::DraReleases::In(api::DraCapability::kDeviceTaintRules, minor_);
  if (rules_version_.empty()) {
    EXPECT_EQ(health.value("result", ""), "warn") << health.dump();
    EXPECT_NE(health.value("detail", "").find(needs.gates.back()), std::string::npos)
        << health.dump();
  } else {
    EXPECT_EQ(health.value("result", ""), "pass") << health.dump();
    EXPECT_NE(health.value("detail", "").find("resource.k8s.io/" + rules_version_),
              std::string::npos)
        << health.dump();
  }
  const json& extended = rows["job-extended-resources"];
  EXPECT_EQ(extended.value("result", ""), extended_kept_ ? "pass" : "warn") << extended.dump();
  EXPECT_TRUE(rows.contains("job-kubelet-health-reports")) << rows.dump();
}

TEST_F(VersionMatrixTest, RunGetsReadyAndCountsTheFleet) {
  if (Skipped()) return;
  ASSERT_NO_FATAL_FAILURE(StartController());
  kube::Result<RunningController::HttpAnswer> ready = RunningController::HttpAnswer{};
  auto readied = WaitFor(
      "/readyz to answer 200", 60s,
      [&] {
        ready = RunningController::Get(probe_port_, "/readyz");
        return ready.ok() && ready->status == 200;
      },
      [&] {
        return ready.ok() ? std::to_string(ready->status) + " " + ready->body
                          : ready.status().ToString();
      });
  EXPECT_TRUE(readied.ok()) << readied.ToString() << "\n" << controller_->Output();
  auto scraped = RunningController::Get(metrics_port_, "/metrics");
  std::string metrics = scraped.ok() ? scraped->body : "";
  EXPECT_NE(metrics.find("device_class=\"" + std::string(kClass) + "\""), std::string::npos)
      << metrics.substr(0, 2000);
  for (const std::string& series : ExpectedFeatureStates()) {
    EXPECT_NE(metrics.find(series), std::string::npos) << series << "\n"
                                                       << Grep(metrics, "feature_");
  }
  std::string log = controller_->Output();
  EXPECT_EQ(log.find("panic"), std::string::npos);
  if (rules_version_.empty()) {
    EXPECT_NE(log.find("serves no DeviceTaintRule API"), std::string::npos) << log;
  } else {
    EXPECT_NE(log.find("DeviceTaintRules are served at resource.k8s.io/" + rules_version_),
              std::string::npos)
        << log;
  }
}

TEST_F(VersionMatrixTest, CommandsReadTheFleet) {
  if (Skipped()) return;
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"devices", "-o", "json"}, {"mapping"}, {"migration-report"}}) {
    std::vector<std::string> argv = {ControllerUnderTest::Binary()};
    argv.insert(argv.end(), command.begin(), command.end());
    argv.insert(argv.end(), {"--kubeconfig", cluster_->kubeconfig()});
    auto run = Subprocess::Run(argv);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->exit_code, 0) << command[0] << ":\n" << run->out << run->err;
    if (command[0] == "devices") {
      EXPECT_NE(run->out.find("vm-a"), std::string::npos) << run->out;
    }
  }
}

TEST_F(VersionMatrixTest, DeviceHealthTaintsWhereRulesAreServedElseSaysWhichGate) {
  if (Skipped()) return;
  ASSERT_NO_FATAL_FAILURE(StartController());
  ASSERT_TRUE(
      cluster_
          ->Apply(std::string("apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\n"
                              "metadata:\n  name: ") +
                  kHealth +
                  "\nspec:\n  driver: gpu.example.com\n  pool: vm-a\n  device: gpu-0\n"
                  "  state: Unhealthy\n  reason: VersionMatrix\n")
          .ok());
  if (rules_version_.empty()) {
    auto waited = WaitFor(
        "Enforced=False TaintRulesNotServed", 45s,
        [&] { return Condition("Enforced", "reason") == "TaintRulesNotServed"; },
        [&] { return Condition("Enforced", "reason"); });
    ASSERT_TRUE(waited.ok()) << waited.ToString() << "\n" << controller_->Output();
    auto needs = api::DraReleases::In(api::DraCapability::kDeviceTaintRules, minor_);
    EXPECT_NE(Condition("Enforced", "message").find(needs.gates.back()), std::string::npos)
        << Condition("Enforced", "message");
    return;
  }
  std::string resource = "devicetaintrules." + rules_version_ + ".resource.k8s.io";
  std::string effect;
  auto tainted = WaitFor(
      "the DeviceTaintRule at " + rules_version_, 45s,
      [&] {
        auto rule = cluster_->GetJson({"get", resource, std::string("devicehealth-") + kHealth});
        effect = rule.ok() ? rule->value("/spec/taint/effect"_json_pointer, std::string()) : "";
        return effect == "NoExecute";
      },
      [&] { return "effect \"" + effect + "\""; });
  ASSERT_TRUE(tainted.ok()) << tainted.ToString() << "\n" << controller_->Output();
  auto enforced = WaitFor(
      "Enforced=True", 30s, [&] { return Condition("Enforced", "status") == "True"; },
      [&] { return Condition("Enforced", "reason"); });
  EXPECT_TRUE(enforced.ok()) << enforced.ToString();
}

}  // namespace
}  // namespace dra::testing
