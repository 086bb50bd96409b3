// migration-report against the real API server: workloads of several kinds
// in a namespace, a DeviceClass backing one name, a node whose status says a
// device plugin serves that name too; the JSON report lists each workload
// with its counts, backing class, plugin nodes, pinning and advice.
#include <gtest/gtest.h>

#include <map>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "mr.example.com";
const std::vector<std::string> kFleet{"mr-a:1:24Gi:gpu-mr", "mr-b:1:24Gi:gpu-mr"};

std::string Workloads(const std::string& ns) {
  auto meta = [&](const std::string& name) {
    return "metadata: {name: " + name + ", namespace: " + ns + "}\n";
  };
  std::string container =
      "      containers:\n      - name: c\n        image: registry.k8s.io/pause:3.10\n"
      "        resources: {limits: {example.com/mr-gpu: 2}}\n";
  return "apiVersion: apps/v1\nkind: Deployment\n" + meta("counted") +
         "spec:\n  replicas: 3\n  selector: {matchLabels: {app: counted}}\n  template:\n"
         "    metadata: {labels: {app: counted}}\n    spec:\n" +
         container + "---\napiVersion: apps/v1\nkind: StatefulSet\n" + meta("pinned") +
         "spec:\n  replicas: 2\n  serviceName: pinned\n  selector: {matchLabels: {app: pinned}}\n"
         "  template:\n    metadata: {labels: {app: pinned}}\n    spec:\n"
         "      nodeSelector: {kubernetes.io/hostname: mr-b}\n" +
         container + "---\napiVersion: batch/v1\nkind: CronJob\n" + meta("nightly") +
         "spec:\n  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n      template:\n"
         "        spec:\n          restartPolicy: Never\n          containers:\n"
         "          - name: c\n            image: registry.k8s.io/pause:3.10\n"
         "            resources: {limits: {vendor.example.com/fpga: 1}}\n"
         "---\napiVersion: v1\nkind: ConfigMap\n" +
         meta("unrelated") + "data: {a: b}\n";
}

class MigrationReportTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    json cls = {{"apiVersion", "resource.k8s.io/v1"},
                {"kind", "DeviceClass"},
                {"metadata", {{"name", kClass}}},
                {"spec", {{"extendedResourceName", "example.com/mr-gpu"}}}};
    ASSERT_TRUE(cluster_->Apply(cls.dump()).ok());
    // A device plugin on mr-a advertises the same name.
    auto patched = cluster_->Kubectl(
        {"patch", "node", "mr-a", "--subresource=status", "--type=merge", "-p",
         R"({"status":{"capacity":{"example.com/mr-gpu":"4"},"allocatable":{"example.com/mr-gpu":"4"}}})"});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
    auto ns = cluster_->CreateTestNamespace("migration");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    ASSERT_TRUE(cluster_->Kubectl({"apply", "-f", "-"}, Workloads(ns_)).ok());
  }

  void TearDown() override {
    if (!cluster_) return;
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  ProcessOutput Report(const std::vector<std::string>& extra) {
    std::vector<std::string> argv{std::string(DRA_BINARY_DIR) + "/dra-controller",
                                  "migration-report",
                                  "-n",
                                  ns_,
                                  "--kubeconfig",
                                  cluster_->kubeconfig()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto run = Subprocess::Run(argv);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    return run.ok() ? *run : ProcessOutput{};
  }

  std::string ns_;
};

TEST_F(MigrationReportTest, ListsEachWorkloadWithWhatBacksItAndWhatToDo) {
  ProcessOutput report = Report({"-o", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  json rows = json::parse(report.out);
  ASSERT_EQ(rows.size(), 3u) << rows.dump(2);

  const json& cron = rows[0];
  EXPECT_EQ(cron["kind"], "CronJob");
  EXPECT_EQ(cron["resource"], "vendor.example.com/fpga");
  EXPECT_EQ(cron["deviceClass"], nullptr);
  EXPECT_EQ(cron["advice"], "device-plugin");

  const json& counted = rows[1];
  EXPECT_EQ(counted["kind"], "Deployment");
  EXPECT_EQ(counted["namespace"], ns_);
  EXPECT_EQ(counted["replicas"], 3);
  EXPECT_EQ(counted["perPod"], 2);
  EXPECT_EQ(counted["total"], 6);
  EXPECT_EQ(counted["deviceClass"], kClass);
  EXPECT_GE(counted["candidateNodes"].get<int>(), 2);
  EXPECT_EQ(counted["devicePluginNodes"], 1) << "mr-a advertises the name";
  EXPECT_EQ(counted["advice"], "count-only");

  const json& pinned = rows[2];
  EXPECT_EQ(pinned["kind"], "StatefulSet");
  EXPECT_EQ(pinned["candidateNodes"], 1);
  EXPECT_EQ(pinned["devicePluginNodes"], 0);
  EXPECT_EQ(pinned["pinnedBy"], json::array({"nodeSelector"}));
  EXPECT_EQ(pinned["advice"], "explicit-claim");
  EXPECT_EQ(pinned["translate"], "kubectl get statefulset/pinned -n " + ns_ +
                                     " -o yaml | dra-controller translate -f -");
}

TEST_F(MigrationReportTest, TableNamesTheTranslateInvocation) {
  ProcessOutput report = Report({});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.out.rfind("NAMESPACE ", 0), 0u) << report.out;
  EXPECT_NE(report.out.find("kubectl get statefulset/pinned -n " + ns_), std::string::npos)
      << report.out;
  std::cout << report.out;  // the README's example comes from this output
}

// A bare Pod the scheduler placed carries the binding's nodeName: it is not
// pinned, and its row is count-only. One whose author set nodeName is.
TEST_F(MigrationReportTest, ScheduledBarePodIsNotPinnedButAnAuthorsNodeNameIs) {
  auto pod = [&](const std::string& name, const std::string& node_name) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: " + ns_ +
           "}\nspec:\n" + node_name +
           "  containers:\n  - name: c\n    image: registry.k8s.io/pause:3.10\n"
           "    resources: {limits: {example.com/mr-gpu: 1}}\n";
  };
  ASSERT_TRUE(cluster_->Kubectl({"apply", "-f", "-"}, pod("placed", "")).ok());
  ASSERT_TRUE(cluster_->Kubectl({"apply", "-f", "-"}, pod("by-hand", "  nodeName: mr-b\n")).ok());
  auto bound = WaitFor("the scheduler to bind pod/placed", 60s, [&] {
    auto got = cluster_->GetJson({"get", "pod", "placed", "-n", ns_});
    return got.ok() && !got->value("/spec/nodeName"_json_pointer, std::string()).empty();
  });
  ASSERT_TRUE(bound.ok()) << bound.ToString();
  ProcessOutput report = Report({"-o", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  json rows = json::parse(report.out);
  std::map<std::string, json> pods;
  for (const auto& row : rows) {
    if (row["kind"] == "Pod") pods[row["name"].get<std::string>()] = row;
  }
  ASSERT_EQ(pods.size(), 2u) << rows.dump(2);
  EXPECT_EQ(pods["placed"]["pinnedBy"], json::array()) << pods["placed"].dump();
  EXPECT_EQ(pods["placed"]["advice"], "count-only");
  EXPECT_EQ(pods["by-hand"]["pinnedBy"], json::array({"nodeName"})) << pods["by-hand"].dump();
  EXPECT_EQ(pods["by-hand"]["advice"], "explicit-claim");
  EXPECT_EQ(pods["by-hand"]["translate"], "kubectl get pod/by-hand -n " + ns_ +
                                              " -o yaml --show-managed-fields | dra-controller "
                                              "translate -f -");
}

}  // namespace
}  // namespace dra::testing
