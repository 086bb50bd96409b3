// The install as the README gives it, run as Pods on the real node (NODE=1,
// with the project's image imported into its containerd): `kubectl apply -k
// crds/`, a TLS Secret of the operator's own, an overlay of manifests/ with
// the tls component; `kubectl rollout status` succeeds, both replicas are
// Ready and exactly one leads. A person's Degraded DeviceHealth closes a GPU;
// while the leader Pod is deleted and the Deployment rolls, its rule is never
// lifted or weakened at any 200 ms poll and is never duplicated. Uninstalling
// as docs/uninstall.md says leaves the rule; reinstalling takes it over
// without rewriting it. The Helm chart, installed as the README says in a
// namespace of its own, runs the same way. Skipped without the image on the node (fails under
// DRA_REQUIRE_NODE_IMAGE=1, as in `make test` where the image is built).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include "tests/support/RealNodeInstallFixture.h"
#include "tests/support/RepoRoot.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr const char* kHealth = "real-node-install-gpu-1";

// Polls the device's rules every 200 ms on a thread of its own and keeps the
// first poll at which the device was not closed by exactly one NoSchedule rule.
class RuleWatch {
 public:
  explicit RuleWatch(TestCluster& cluster) : cluster_(cluster) {
    thread_ = std::thread([this] { Loop(); });
  }
  ~RuleWatch() { Stop(); }

  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int polls() const { return polls_; }
  std::string violation() {
    std::lock_guard lock(mu_);
    return violation_;
  }

 private:
  void Loop() {
    while (!stop_) {
      auto rules = cluster_.GetJson({"get", "devicetaintrules", "-l",
                                     std::string("dra-controller.dev/device-health=") + kHealth});
      if (rules.ok()) {
        ++polls_;
        json items = rules->value("items", json::array());
        bool closed = items.size() == 1 && items[0].value("/spec/taint/effect"_json_pointer,
                                                          std::string()) == "NoSchedule";
        std::lock_guard lock(mu_);
        if (!closed && violation_.empty()) violation_ = items.dump();
      }
      std::this_thread::sleep_for(200ms);
    }
  }

  TestCluster& cluster_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> polls_{0};
  std::mutex mu_;
  std::string violation_;
};

class RealNodeInstallTest : public RealNodeInstallFixture {
 protected:
  void TearDown() override {
    if (cluster_) {
      (void)cluster_->Kubectl({"delete", "devicehealth", kHealth, "--ignore-not-found"});
    }
    RealNodeInstallFixture::TearDown();
  }

  json Rule() {
    auto rules = cluster_->GetJson({"get", "devicetaintrules", "-l",
                                    std::string("dra-controller.dev/device-health=") + kHealth});
    json items = rules.ok() ? rules->value("items", json::array()) : json::array();
    return items.size() == 1 ? items[0] : json();
  }

  std::string DegradedHealth() const {
    return json{{"apiVersion", "dra-controller.dev/v1alpha1"},
                {"kind", "DeviceHealth"},
                {"metadata", {{"name", kHealth}}},
                {"spec",
                 {{"driver", node_->driver()},
                  {"pool", node_->name()},
                  {"device", "gpu-1"},
                  {"state", "Degraded"},
                  {"reason", "EccErrors"}}}}
        .dump();
  }
};

TEST_F(RealNodeInstallTest, TwoPodsOneLeaderAndTheTaintHoldsThroughHandOversAndReinstall) {
  ASSERT_NO_FATAL_FAILURE(Install());
  ASSERT_TRUE(WaitFor("both replicas Ready and one holding the Lease", 60s,
                      [&] {
                        auto ready = ReadyPods();
                        return ready.size() == 2 && !Leader().empty();
                      })
                  .ok())
      << PodsAndEvents();
  auto ready = ReadyPods();
  std::string leader = Leader();
  ASSERT_NE(std::find(ready.begin(), ready.end(), leader), ready.end())
      << "the Lease is held by " << leader << ", not a Pod of the Deployment";
  int leading = 0;
  for (const auto& pod : ready) {
    leading += Log(pod).find("became leader") != std::string::npos ? 1 : 0;
  }
  EXPECT_EQ(leading, 1) << "exactly one replica leads";

  ASSERT_TRUE(cluster_->Apply(DegradedHealth()).ok());
  ASSERT_TRUE(WaitFor("the Degraded GPU's NoSchedule rule", 60s,
                      [&] {
                        return Rule().value("/spec/taint/effect"_json_pointer, std::string()) ==
                               "NoSchedule";
                      })
                  .ok())
      << Log(leader);
  std::string rule_uid = Rule().value("/metadata/uid"_json_pointer, std::string());

  RuleWatch watch(*cluster_);
  auto killed = Clock::now();
  ASSERT_TRUE(cluster_->Kubectl({"delete", "pod", leader, "-n", namespace_, "--wait=false"}).ok());
  ASSERT_TRUE(WaitFor("another replica to take the Lease", 90s,
                      [&] {
                        std::string now = Leader();
                        return !now.empty() && now != leader;
                      })
                  .ok())
      << PodsAndEvents();
  std::cout << "[ real node ] leader Pod deleted -> new leader after " << SecondsSince(killed)
            << " s\n";
  ASSERT_NO_FATAL_FAILURE(RolloutStatus());
  ASSERT_TRUE(
      cluster_->Kubectl({"-n", namespace_, "rollout", "restart", "deployment/dra-controller"})
          .ok());
  ASSERT_NO_FATAL_FAILURE(RolloutStatus());
  watch.Stop();
  EXPECT_EQ(watch.violation(), "") << "the rule was lifted, weakened or doubled";
  EXPECT_GE(watch.polls(), 5) << "the watch did not cover the hand-overs";

  // Uninstall as docs/uninstall.md says: the rule stays.
  auto removed =
      cluster_->Kubectl({"delete", "-k", overlay_->path(), "--wait=true", "--timeout=120s"});
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(Rule().value("/metadata/uid"_json_pointer, std::string()), rule_uid)
      << "uninstalling lifted the taint";
  std::string version = Rule().value("/metadata/resourceVersion"_json_pointer, std::string());

  // Reinstalled, the new leader takes the rule over as it is.
  ASSERT_NO_FATAL_FAILURE(Install());
  ASSERT_TRUE(WaitFor("the reinstalled leader to start device health", 60s,
                      [&] {
                        std::string now = Leader();
                        return !now.empty() &&
                               Log(now).find("started devicehealth") != std::string::npos;
                      })
                  .ok())
      << PodsAndEvents();
  // Its first reconcile runs at once; for 5 s the rule must stay as it was.
  auto until = Clock::now() + 5s;
  while (Clock::now() < until &&
         Rule().value("/metadata/resourceVersion"_json_pointer, std::string()) == version) {
    std::this_thread::sleep_for(200ms);
  }
  json rule = Rule();
  EXPECT_EQ(rule.value("/metadata/uid"_json_pointer, std::string()), rule_uid);
  EXPECT_EQ(rule.value("/metadata/resourceVersion"_json_pointer, std::string()), version)
      << "the reinstall rewrote a rule that was already right";
}

// The chart as the README installs it, in a namespace of its own, with the
// operator's Secret created once Helm made the namespace: both replicas become
// Ready, one leads, and `helm uninstall` stops them.
TEST_F(RealNodeInstallTest, TheHelmChartRunsInANamespaceOfItsOwn) {
  namespace_ = "gpu-system";
  helm_installed_ = true;
  auto installed =
      Helm({"install", "dra-controller", RepoRoot::Path("manifests/helm/dra-controller"), "-n",
            namespace_, "--create-namespace", "--set", "tls.secretName=gpu-serving-tls",
            // The fake fleet's nodes run nothing (RealNodeInstallFixture::OnTheNode).
            "--set-string", "nodeSelector.kubernetes\\.io/hostname=" + node_->name()});
  ASSERT_TRUE(installed.ok()) << installed.status().ToString();
  ASSERT_NO_FATAL_FAILURE(CreateTlsSecret("gpu-serving-tls"));
  ASSERT_NO_FATAL_FAILURE(RolloutStatus());
  ASSERT_TRUE(WaitFor("both replicas Ready and one holding the Lease", 60s,
                      [&] {
                        auto ready = ReadyPods();
                        return ready.size() == 2 &&
                               std::find(ready.begin(), ready.end(), Leader()) != ready.end();
                      })
                  .ok())
      << PodsAndEvents();
  auto removed =
      Helm({"uninstall", "dra-controller", "-n", namespace_, "--wait", "--timeout=120s"});
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_TRUE(
      WaitFor("the Pods stopped and gone", 90s,
              [&] {
                auto pods = cluster_->Kubectl({"get", "pods", "-n", namespace_, "-o", "name"});
                return pods.ok() && pods->out.empty();
              })
          .ok())
      << PodsAndEvents();
}

}  // namespace
}  // namespace dra::testing
