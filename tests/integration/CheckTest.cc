// `dra-controller check` against the real control plane: the demo fleet (the
// seed's two fake GPU nodes and the example DeviceClass) passes; each broken
// state the issue names (an incomplete pool, a duplicate class, a
// device-plugin node, a tainted device, a missing permission) is named in its
// row and makes the command exit 1. The binary also answers as a kubectl
// plugin (`kubectl dra -n NS check`) through a kubectl-dra link on PATH.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <functional>
#include <map>

#include "controller/check/ScheduleTest.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

std::string Binary() { return std::string(DRA_BINARY_DIR) + "/dra-controller"; }

struct CheckRun {
  int exit_code = -1;
  std::map<std::string, json> rows;  // name -> {result, detail}
  std::string raw;

  std::string Result(const std::string& name) const {
    auto it = rows.find(name);
    return it == rows.end() ? "absent" : it->second["result"].get<std::string>();
  }
  std::string Detail(const std::string& name) const {
    auto it = rows.find(name);
    return it == rows.end() ? "" : it->second["detail"].get<std::string>();
  }
};

class CheckTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    // Leave the cluster as found: remove the fleet and class only if this test made them.
    created_fleet_ = !cluster_->Kubectl({"get", "node", "node-a"}).ok();
    created_class_ = !cluster_->Kubectl({"get", "deviceclass", "gpu.example.com"}).ok();
    auto fleet = cluster_->RunRepoScript("hack/fake-gpu-fleet.sh", {"apply"});
    ASSERT_TRUE(fleet.ok()) << fleet.status().ToString();
    auto cls = cluster_->Kubectl(
        {"apply", "-f", std::string(DRA_REPO_ROOT) + "/manifests/examples/gpu-deviceclass.yaml"});
    ASSERT_TRUE(cls.ok()) << cls.status().ToString();
  }

  void TearDown() override {
    if (!cluster_) return;
    for (const auto& args : cleanup_) (void)cluster_->Kubectl(args);
    for (const auto& ns : namespaces_) cluster_->DeleteTestNamespace(ns);
    if (created_class_) {
      (void)cluster_->Kubectl({"delete", "deviceclass", "gpu.example.com", "--ignore-not-found"});
    }
    if (created_fleet_) (void)cluster_->RunRepoScript("hack/fake-gpu-fleet.sh", {"delete"});
  }

  CheckRun Check(const std::string& kubeconfig) const {
    return Parse(Subprocess::Run({Binary(), "check", "-o", "json", "--kubeconfig", kubeconfig}));
  }

  static CheckRun Parse(const kube::Result<ProcessOutput>& run) {
    CheckRun result;
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    if (!run.ok()) return result;
    result.exit_code = run->exit_code;
    result.raw = run->out + run->err;
    json doc = json::parse(run->out, nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << result.raw;
    if (doc.is_discarded()) return result;
    for (const auto& row : doc["results"]) result.rows[row["name"].get<std::string>()] = row;
    return result;
  }

  void CreateCleanedUp(const json& object, std::vector<std::string> delete_args) {
    ASSERT_TRUE(cluster_->Create(object.dump()).ok()) << object.dump();
    delete_args.push_back("--ignore-not-found");
    cleanup_.push_back(std::move(delete_args));
  }

  // Runs check until `done` holds for its result (RBAC changes reach the
  // authorizer's cache shortly after they are written) or `timeout` passes;
  // the last run either way.
  CheckRun CheckUntil(const std::vector<std::string>& argv,
                      const std::function<bool(const CheckRun&)>& done,
                      std::chrono::seconds timeout = 30s) const {
    CheckRun last;
    (void)WaitFor("check to see the RBAC change", timeout, [&] {
      last = Parse(Subprocess::Run(argv));
      return done(last);
    });
    return last;
  }

  // Labelled Pods and ResourceClaims left in `ns`.
  int Labelled(const std::string& ns) const {
    int count = 0;
    for (const char* type : {"pods", "resourceclaims.resource.k8s.io"}) {
      auto list = cluster_->GetJson({"get", type, "-n", ns, "-l", check::ScheduleTest::kLabel});
      count += list.ok() ? static_cast<int>((*list)["items"].size()) : 1000;
    }
    return count;
  }

  std::string TestNamespace() {
    auto ns = cluster_->CreateTestNamespace("check-schedule");
    EXPECT_TRUE(ns.ok()) << ns.status().ToString();
    if (!ns.ok()) return "";
    namespaces_.push_back(*ns);
    return *ns;
  }

  std::vector<std::vector<std::string>> cleanup_;
  std::vector<std::string> namespaces_;
  bool created_fleet_ = false;
  bool created_class_ = false;
};

TEST_F(CheckTest, DemoFleetPasses) {
  if (Skipped()) return;
  auto run = Check(cluster_->kubeconfig());
  EXPECT_EQ(run.exit_code, 0) << run.raw;
  EXPECT_EQ(run.Result("kubernetes-version"), "pass") << run.raw;
  EXPECT_EQ(run.Result("dra-api-served"), "pass") << run.raw;
  EXPECT_EQ(run.Result("drivers-and-pools"), "pass") << run.raw;
  EXPECT_EQ(run.Result("duplicate-extended-resources"), "pass") << run.raw;
  EXPECT_EQ(run.Result("mapping-order-hazard"), "pass") << run.raw;
  EXPECT_EQ(run.Result("device-taints"), "pass") << run.raw;
  EXPECT_EQ(run.Result("caller-rbac"), "pass") << run.raw;
  EXPECT_NE(run.Detail("device-classes").find("gpu.example.com -> example.com/gpu"),
            std::string::npos)
      << run.raw;
}

TEST_F(CheckTest, IncompletePoolIsNamed) {
  if (Skipped()) return;
  CreateCleanedUp(
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "ResourceSlice"},
       {"metadata", {{"name", "check-partial-0"}}},
       {"spec",
        {{"driver", "gpu.example.com"},
         {"pool", {{"name", "check-partial"}, {"generation", 1}, {"resourceSliceCount", 2}}},
         {"nodeName", "node-a"},
         {"devices",
          json::array({{{"name", "nic-0"}, {"attributes", {{"type", {{"string", "nic"}}}}}}})}}}},
      {"delete", "resourceslice", "check-partial-0"});
  auto run = Check(cluster_->kubeconfig());
  EXPECT_EQ(run.exit_code, 1) << run.raw;
  EXPECT_EQ(run.Result("drivers-and-pools"), "fail") << run.raw;
  EXPECT_NE(run.Detail("drivers-and-pools").find("gpu.example.com/check-partial has 1 of 2"),
            std::string::npos)
      << run.raw;
}

TEST_F(CheckTest, DuplicateClassIsNamed) {
  if (Skipped()) return;
  CreateCleanedUp(
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "DeviceClass"},
       {"metadata", {{"name", "check-dup.example.com"}}},
       {"spec",
        {{"extendedResourceName", "example.com/gpu"},
         {"selectors",
          json::array({{{"cel", {{"expression", "device.driver == \"gpu.example.com\""}}}}})}}}},
      {"delete", "deviceclass", "check-dup.example.com"});
  // When the winner of a contested name goes, kube-scheduler keeps mapping
  // the name to nothing until the remaining class changes (the order hazard
  // dra-controller reports): touch it so later tests schedule again.
  cleanup_.push_back(
      {"annotate", "deviceclass", "gpu.example.com", "--overwrite",
       "dra-controller.dev/check-test-touched=" +
           std::to_string(std::chrono::system_clock::now().time_since_epoch().count())});
  auto run = Check(cluster_->kubeconfig());
  EXPECT_EQ(run.exit_code, 1) << run.raw;
  EXPECT_EQ(run.Result("duplicate-extended-resources"), "fail") << run.raw;
  EXPECT_NE(run.Detail("duplicate-extended-resources").find("check-dup.example.com"),
            std::string::npos)
      << run.raw;
}

TEST_F(CheckTest, DevicePluginNodeIsNamed) {
  if (Skipped()) return;
  auto patched = cluster_->Kubectl(
      {"patch", "node", "node-a", "--subresource=status", "--type=merge", "-p",
       R"({"status":{"capacity":{"example.com/gpu":"2"},"allocatable":{"example.com/gpu":"2"}}})"});
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  cleanup_.push_back({"patch", "node", "node-a", "--subresource=status", "--type=json", "-p",
                      R"([{"op":"remove","path":"/status/capacity/example.com~1gpu"},)"
                      R"({"op":"remove","path":"/status/allocatable/example.com~1gpu"}])"});
  auto run = Check(cluster_->kubeconfig());
  EXPECT_EQ(run.exit_code, 1) << run.raw;
  EXPECT_EQ(run.Result("device-plugin-overlap"), "fail") << run.raw;
  EXPECT_NE(run.Detail("device-plugin-overlap").find("node-a"), std::string::npos) << run.raw;
}

TEST_F(CheckTest, TaintedDeviceIsNamed) {
  if (Skipped()) return;
  CreateCleanedUp(
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "DeviceTaintRule"},
       {"metadata", {{"name", "check-taint"}}},
       {"spec",
        {{"deviceSelector",
          {{"driver", "gpu.example.com"}, {"pool", "node-a"}, {"device", "gpu-0"}}},
         {"taint", {{"key", "example.com/broken"}, {"value", "yes"}, {"effect", "NoSchedule"}}}}}},
      {"delete", "devicetaintrule", "check-taint"});
  auto run = Check(cluster_->kubeconfig());
  EXPECT_EQ(run.exit_code, 1) << run.raw;
  EXPECT_EQ(run.Result("device-taints"), "fail") << run.raw;
  EXPECT_NE(run.Detail("device-taints").find("gpu.example.com/node-a/gpu-0 example.com/broken"),
            std::string::npos)
      << run.raw;
}

// A service account allowed every read but the Lease: check names the
// missing permission and the Lease row it costs, and still judges the rest.
TEST_F(CheckTest, MissingPermissionIsNamed) {
  if (Skipped()) return;
  auto ns = cluster_->CreateTestNamespace("check-rbac");
  ASSERT_TRUE(ns.ok()) << ns.status().ToString();
  cleanup_.push_back({"delete", "namespace", *ns, "--wait=false"});
  ASSERT_TRUE(cluster_->Kubectl({"create", "serviceaccount", "checker", "-n", *ns}).ok());
  const std::string role = "dra-check-test-" + *ns;
  CreateCleanedUp(
      {{"apiVersion", "rbac.authorization.k8s.io/v1"},
       {"kind", "ClusterRole"},
       {"metadata", {{"name", role}}},
       {"rules",
        json::array(
            {{{"apiGroups", {"resource.k8s.io"}},
              {"resources",
               {"deviceclasses", "resourceslices", "resourceclaims", "devicetaintrules"}},
              {"verbs", {"list"}}},
             {{"apiGroups", {""}}, {"resources", {"nodes", "pods"}}, {"verbs", {"list"}}},
             {{"apiGroups", {"dra-controller.dev"}},
              {"resources", {"devicehealths"}},
              {"verbs", {"list"}}},
             {{"apiGroups", {"apps"}}, {"resources", {"deployments"}}, {"verbs", {"get"}}}})}},
      {"delete", "clusterrole", role});
  auto bound = cluster_->Kubectl({"create", "clusterrolebinding", role, "--clusterrole", role,
                                  "--serviceaccount", *ns + ":checker"});
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  cleanup_.push_back({"delete", "clusterrolebinding", role, "--ignore-not-found"});
  auto token = cluster_->Kubectl({"create", "token", "checker", "-n", *ns});
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  auto view = cluster_->Kubectl({"config", "view", "--raw", "--minify", "-o", "json"});
  ASSERT_TRUE(view.ok());
  json admin = json::parse(view->out);
  json config = {
      {"apiVersion", "v1"},
      {"kind", "Config"},
      {"clusters", json::array({{{"name", "test"}, {"cluster", admin["clusters"][0]["cluster"]}}})},
      {"users",
       json::array({{{"name", "checker"},
                     {"user", {{"token", token->out.substr(0, token->out.find('\n'))}}}}})},
      {"contexts", json::array({{{"name", "checker"},
                                 {"context", {{"cluster", "test"}, {"user", "checker"}}}}})},
      {"current-context", "checker"}};
  TempDir dir;
  std::string kubeconfig = dir.Write("kubeconfig", config.dump());
  auto run = CheckUntil({Binary(), "check", "-o", "json", "--kubeconfig", kubeconfig},
                        [](const CheckRun& r) { return r.Result("drivers-and-pools") == "pass"; });
  EXPECT_EQ(run.exit_code, 1) << run.raw;
  EXPECT_EQ(run.Result("caller-rbac"), "fail") << run.raw;
  EXPECT_EQ(run.Detail("caller-rbac"), "missing: get leases.coordination.k8s.io in dra-system")
      << run.raw;
  EXPECT_EQ(run.Result("leader-lease"), "fail") << run.raw;
  EXPECT_EQ(run.Result("drivers-and-pools"), "pass") << run.raw;
}

// The controller's own service account (taken from its Deployment) checked
// with SubjectAccessReviews: without the Lease Role the row names the three
// Lease verbs; with it the row passes.
TEST_F(CheckTest, ControllerPermissionsAreNamed) {
  if (Skipped()) return;
  std::string ns = TestNamespace();
  ASSERT_FALSE(ns.empty());
  ASSERT_TRUE(cluster_->Kubectl({"create", "serviceaccount", "check-controller", "-n", ns}).ok());
  ASSERT_TRUE(
      cluster_
          ->Create(json({{"apiVersion", "apps/v1"},
                         {"kind", "Deployment"},
                         {"metadata", {{"name", "dra-controller"}, {"namespace", ns}}},
                         {"spec",
                          {{"replicas", 0},
                           {"selector", {{"matchLabels", {{"app", "check"}}}}},
                           {"template",
                            {{"metadata", {{"labels", {{"app", "check"}}}}},
                             {"spec",
                              {{"serviceAccountName", "check-controller"},
                               {"containers",
                                json::array({{{"name", "controller"},
                                              {"image", "registry.k8s.io/pause:3.10"},
                                              {"args", {"run", "--leader-elect"}}}})}}}}}}}})
                       .dump())
          .ok());
  const std::string role = "dra-check-controller-" + ns;
  const json rw = {"get", "list", "watch"};
  CreateCleanedUp(
      {{"apiVersion", "rbac.authorization.k8s.io/v1"},
       {"kind", "ClusterRole"},
       {"metadata", {{"name", role}}},
       {"rules",
        json::array(
            {{{"apiGroups", {"resource.k8s.io"}},
              {"resources",
               {"deviceclasses", "resourceslices", "resourceclaims", "devicetaintrules"}},
              {"verbs", rw}},
             {{"apiGroups", {"resource.k8s.io"}},
              {"resources", {"devicetaintrules"}},
              {"verbs", {"create", "patch", "delete"}}},
             {{"apiGroups", {"dra-controller.dev"}},
              {"resources", {"devicehealths"}},
              {"verbs", rw}},
             {{"apiGroups", {"dra-controller.dev"}},
              {"resources", {"devicehealths/status"}},
              {"verbs", {"patch"}}},
             {{"apiGroups", {"dra-controller.dev"}},
              {"resources", {"devicehealths"}},
              {"verbs", {"create", "patch", "delete", "act-as-source"}}},
             {{"apiGroups", {""}}, {"resources", {"pods", "nodes"}}, {"verbs", rw}},
             {{"apiGroups", {""}}, {"resources", {"events"}}, {"verbs", {"create", "patch"}}},
             {{"apiGroups", {""}}, {"resources", {"pods/eviction"}}, {"verbs", {"create"}}}})}},
      {"delete", "clusterrole", role});
  ASSERT_TRUE(cluster_
                  ->Kubectl({"create", "clusterrolebinding", role, "--clusterrole", role,
                             "--serviceaccount", ns + ":check-controller"})
                  .ok());
  cleanup_.push_back({"delete", "clusterrolebinding", role, "--ignore-not-found"});
  const std::vector<std::string> argv = {
      Binary(), "check", "-o", "json", "--kubeconfig", cluster_->kubeconfig(), "-n", ns};
  const std::string denied_prefix = "system:serviceaccount:" + ns + ":check-controller missing: ";
  auto without = CheckUntil(argv, [&](const CheckRun& r) {
    return r.Detail("controller-rbac").find("list") == std::string::npos;  // binding seen
  });
  EXPECT_EQ(without.exit_code, 1) << without.raw;
  EXPECT_EQ(without.Result("controller-rbac"), "fail") << without.raw;
  const std::string lease = " leases.coordination.k8s.io in " + ns + " (leader election)";
  EXPECT_EQ(without.Detail("controller-rbac"),
            denied_prefix + "get" + lease + ", create" + lease + ", update" + lease)
      << without.raw;
  ASSERT_TRUE(cluster_
                  ->Kubectl({"create", "role", "leases", "-n", ns, "--verb=get,create,update",
                             "--resource=leases.coordination.k8s.io"})
                  .ok());
  ASSERT_TRUE(cluster_
                  ->Kubectl({"create", "rolebinding", "leases", "-n", ns, "--role=leases",
                             "--serviceaccount", ns + ":check-controller"})
                  .ok());
  auto with =
      CheckUntil(argv, [](const CheckRun& r) { return r.Result("controller-rbac") == "pass"; });
  EXPECT_EQ(with.Result("controller-rbac"), "pass") << with.raw;
}

// kubectl finds kubectl-dra on PATH and hands it the arguments, kubectl's
// own flags first: `kubectl dra -n NS check`.
TEST_F(CheckTest, AnswersAsKubectlPlugin) {
  if (Skipped()) return;
  TempDir bin;
  std::filesystem::create_symlink(Binary(), bin.path() / "kubectl-dra");
  const char* kubectl = std::getenv("DRA_KUBECTL");
  ASSERT_NE(kubectl, nullptr);
  std::string path = bin.path().string() + ":" + std::string(std::getenv("PATH"));
  auto run =
      Parse(Subprocess::Run({"env", "PATH=" + path, "KUBECONFIG=" + cluster_->kubeconfig(), kubectl,
                             "dra", "-n", "check-plugin-ns", "check", "-o", "json"}));
  EXPECT_EQ(run.exit_code, 0) << run.raw;
  EXPECT_NE(run.Detail("controller-deployment").find("check-plugin-ns/dra-controller"),
            std::string::npos)
      << run.raw;
}

// The real scheduler's verdicts, in a namespace enforcing Pod Security
// "restricted": the mapped extended resource and the demo class schedule, a
// class matching no device does not; nothing labelled stays.
TEST_F(CheckTest, ScheduleTestReportsTheSchedulersVerdicts) {
  if (Skipped()) return;
  CreateCleanedUp(
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "DeviceClass"},
       {"metadata", {{"name", "check-none.example.com"}}},
       {"spec",
        {{"selectors",
          json::array({{{"cel", {{"expression", "device.driver == \"none.example.com\""}}}}})}}}},
      {"delete", "deviceclass", "check-none.example.com"});
  std::string ns = TestNamespace();
  ASSERT_FALSE(ns.empty());
  // The probes must be admissible where Pod Security "restricted" is enforced.
  ASSERT_TRUE(
      cluster_->Kubectl({"label", "namespace", ns, "pod-security.kubernetes.io/enforce=restricted"})
          .ok());
  auto run = Parse(
      Subprocess::Run({Binary(), "check", "-o", "json", "--kubeconfig", cluster_->kubeconfig(),
                       "--schedule-test", ns, "--schedule-timeout", "60s"},
                      "", 120s));
  EXPECT_EQ(run.exit_code, 1) << run.raw;
  EXPECT_EQ(run.Result("schedule example.com/gpu"), "pass") << run.raw;
  EXPECT_EQ(run.Result("schedule class gpu.example.com"), "pass") << run.raw;
  EXPECT_NE(run.Detail("schedule class gpu.example.com").find("scheduled to node-"),
            std::string::npos)
      << run.raw;
  EXPECT_EQ(run.Result("schedule class check-none.example.com"), "fail") << run.raw;
  EXPECT_NE(run.Detail("schedule class check-none.example.com").find("Unschedulable"),
            std::string::npos)
      << run.raw;
  kube::Status gone = WaitFor(
      "no labelled Pods or ResourceClaims", 60s, [&] { return Labelled(ns) == 0; },
      [&] { return std::to_string(Labelled(ns)) + " left"; });
  EXPECT_TRUE(gone.ok()) << gone.ToString();
}

// Ctrl-C while the probes are being created and judged: the run reports the
// interruption, exits 1, and what it created is deleted all the same.
TEST_F(CheckTest, InterruptedScheduleTestLeavesNothingBehind) {
  if (Skipped()) return;
  // Enough classes (two objects each) that the run is still busy when the
  // first labelled Pod shows up and the signal is sent.
  json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", json::array()}};
  for (int i = 0; i < 120; ++i) {
    list["items"].push_back(
        {{"apiVersion", "resource.k8s.io/v1"},
         {"kind", "DeviceClass"},
         {"metadata",
          {{"name", "check-many-" + std::to_string(i) + ".example.com"},
           {"labels", {{"dra-controller.dev/check-test", "many"}}}}},
         {"spec",
          {{"selectors",
            json::array({{{"cel", {{"expression", "device.driver == \"gpu.example.com\""}}}}})}}}});
  }
  cleanup_.push_back(
      {"delete", "deviceclass", "-l", "dra-controller.dev/check-test=many", "--ignore-not-found"});
  ASSERT_TRUE(cluster_->Apply(list.dump()).ok());
  std::string ns = TestNamespace();
  ASSERT_FALSE(ns.empty());
  auto process =
      BackgroundProcess::Start({Binary(), "check", "--kubeconfig", cluster_->kubeconfig(),
                                "--schedule-test", ns, "--schedule-timeout", "120s"});
  ASSERT_TRUE(process.ok()) << process.status().ToString();
  kube::Status started =
      WaitFor("the first labelled object", 60s, [&] { return Labelled(ns) > 0; });
  ASSERT_TRUE(started.ok()) << started.ToString() << "\n" << (*process)->Output();
  (*process)->Signal(SIGINT);
  auto code = (*process)->Wait(60s);
  ASSERT_TRUE(code.has_value()) << "check did not end after SIGINT:\n" << (*process)->Output();
  EXPECT_EQ(*code, 1) << (*process)->Output();
  EXPECT_NE((*process)->Output().find("interrupted; created objects deleted"), std::string::npos)
      << (*process)->Output();
  kube::Status gone = WaitFor(
      "no labelled Pods or ResourceClaims", 60s, [&] { return Labelled(ns) == 0; },
      [&] { return std::to_string(Labelled(ns)) + " left"; });
  EXPECT_TRUE(gone.ok()) << gone.ToString();
}

}  // namespace
}  // namespace dra::testing
