// translate against the real control plane: the DeviceClass mapping comes
// from the live cluster; the output for every workload kind passes
// `kubectl apply --dry-run=server`; a translated Deployment applied for real
// gets its Pod placed by the real scheduler on a device of the right class
// through its template's claim, where the untranslated Pod lands through the
// implicit claim.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "tr-big.example.com";
constexpr const char* kResource = "example.com/tr-gpu";
const std::vector<std::string> kFleet{"tr-a:2:24Gi:gpu-tr-24g", "tr-b:2:80Gi:gpu-tr-80g"};

std::string ClassManifest() {
  return DeviceClassManifest(kClass, kResource, FakeGpuModelSelector("gpu-tr-80g"));
}

std::string Indent(const std::string& text, size_t by) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t next = text.find('\n', pos);
    next = next == std::string::npos ? text.size() : next + 1;
    out += std::string(by, ' ') + text.substr(pos, next - pos);
    pos = next;
  }
  return out;
}

// One workload of every kind translate rewrites, each asking for the resource.
std::string EveryKind(const std::string& ns) {
  std::string container =
      "      - name: main\n        image: registry.k8s.io/pause:3.10\n"
      "        resources:\n          limits: {example.com/tr-gpu: 1}\n";
  auto templated = [&](const std::string& kind, const std::string& api, const std::string& name,
                       const std::string& extra) {
    return "---\napiVersion: " + api + "\nkind: " + kind + "\nmetadata: {name: " + name +
           ", namespace: " + ns + "}\nspec:\n" + extra +
           "  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n" +
           (kind == "Job" ? "      restartPolicy: Never\n" : "") + "      containers:\n" +
           container;
  };
  auto selector = [](const std::string& app) {
    return "  selector: {matchLabels: {app: " + app + "}}\n";
  };
  std::string pod_container =
      "  - name: main\n    image: registry.k8s.io/pause:3.10\n"
      "    resources:\n      limits: {example.com/tr-gpu: 1}\n";
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: pod, namespace: " + ns +
         "}\nspec:\n  containers:\n" + pod_container +
         templated("Deployment", "apps/v1", "deploy", selector("deploy")) +
         templated("StatefulSet", "apps/v1", "sts", selector("sts") + "  serviceName: sts\n") +
         templated("DaemonSet", "apps/v1", "ds", selector("ds")) +
         templated("ReplicaSet", "apps/v1", "rs", selector("rs")) +
         templated("Job", "batch/v1", "job", "") +
         "---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cron, namespace: " + ns +
         "}\nspec:\n  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n      template:\n"
         "        spec:\n          restartPolicy: OnFailure\n          containers:\n"
         "          - name: main\n            image: registry.k8s.io/pause:3.10\n"
         "            resources:\n              limits: {example.com/tr-gpu: 2}\n"
         "---\napiVersion: v1\nkind: PodTemplate\nmetadata: {name: tmpl, namespace: " +
         ns + "}\ntemplate:\n  spec:\n    containers:\n" + Indent(pod_container, 2);
}

std::string Deployment(const std::string& ns) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: infer, namespace: " + ns +
         "}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: infer}}\n  template:\n"
         "    metadata: {labels: {app: infer}}\n    spec:\n      automountServiceAccountToken: "
         "false\n      containers:\n      - name: server\n        image: "
         "registry.k8s.io/pause:3.10\n        resources:\n          limits: {example.com/tr-gpu: "
         "1}\n";
}

std::string BarePod(const std::string& ns) {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: implicit, namespace: " + ns +
         "}\nspec:\n  automountServiceAccountToken: false\n  containers:\n  - name: main\n"
         "    image: registry.k8s.io/pause:3.10\n    resources:\n"
         "      limits: {example.com/tr-gpu: 1}\n";
}

class TranslateTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(cluster_->Apply(ClassManifest()).ok());
    auto ns = cluster_->CreateTestNamespace("translate");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    if (!cluster_) return;
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  // `dra-controller translate -f FILE` with the mapping read from the cluster.
  ProcessOutput Translate(const std::string& manifest) {
    std::string file = dir_.Write("in.yaml", manifest);
    auto run = Subprocess::Run({std::string(DRA_BINARY_DIR) + "/dra-controller", "translate", "-f",
                                file, "--kubeconfig", cluster_->kubeconfig()});
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    return run.ok() ? *run : ProcessOutput{};
  }

  std::string NodeOf(const std::string& pod) {
    auto got = cluster_->GetJson({"get", "pod", pod, "-n", ns_});
    return got.ok() ? got->value("/spec/nodeName"_json_pointer, std::string()) : "";
  }

  // The single request of the claim the scheduler made for the "implicit" Pod.
  json ImplicitRequest() {
    auto pod = cluster_->GetJson({"get", "pod", "implicit", "-n", ns_});
    if (!pod.ok()) return json();
    std::string claim = pod->value(
        "/status/extendedResourceClaimStatus/resourceClaimName"_json_pointer, std::string());
    if (claim.empty()) return json();
    auto got = cluster_->GetJson({"get", "resourceclaim", claim, "-n", ns_});
    if (!got.ok()) return json();
    const json& requests = (*got)["spec"]["devices"]["requests"];
    return requests.size() == 1 ? requests[0] : json(requests);
  }

  TempDir dir_;
  std::string ns_;
};

TEST_F(TranslateTest, EveryKindPassesServerSideDryRun) {
  ProcessOutput translated = Translate(EveryKind(ns_));
  ASSERT_EQ(translated.exit_code, 0) << translated.err;
  EXPECT_NE(translated.err.find("translated 8 workload(s) into 8 ResourceClaimTemplate(s)"),
            std::string::npos)
      << translated.err;
  EXPECT_EQ(translated.out.find(kResource), std::string::npos) << translated.out;
  auto applied = cluster_->Kubectl({"apply", "--dry-run=server", "-f", "-"}, translated.out);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString() << "\n" << translated.out;
  for (const char* object :
       {"pod/pod", "deployment.apps/deploy", "statefulset.apps/sts", "daemonset.apps/ds",
        "replicaset.apps/rs", "job.batch/job", "cronjob.batch/cron", "podtemplate/tmpl",
        "resourceclaimtemplate.resource.k8s.io/deploy-tr-gpu"}) {
    EXPECT_NE(applied->out.find(object), std::string::npos) << object << "\n" << applied->out;
  }
}

TEST_F(TranslateTest, LiveObjectsFromKubectlGetTranslateAsAList) {
  ASSERT_TRUE(cluster_->Kubectl({"apply", "-f", "-"}, Deployment(ns_)).ok());
  auto live = cluster_->Kubectl({"get", "deployments", "-n", ns_, "-o", "yaml"});
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  ASSERT_NE(live->out.find("kind: List"), std::string::npos) << live->out;
  ProcessOutput translated = Translate(live->out);
  ASSERT_EQ(translated.exit_code, 0) << translated.err;
  EXPECT_NE(translated.err.find("translated 1 workload(s) into 1 ResourceClaimTemplate(s)"),
            std::string::npos)
      << translated.err;
  auto applied = cluster_->Kubectl({"apply", "--dry-run=server", "-f", "-"}, translated.out);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString() << "\n" << translated.out;
  EXPECT_NE(applied->out.find("resourceclaimtemplate.resource.k8s.io/infer-tr-gpu created"),
            std::string::npos)
      << applied->out;
  EXPECT_NE(applied->out.find("deployment.apps/infer configured"), std::string::npos)
      << applied->out;
}

TEST_F(TranslateTest, TranslatedDeploymentIsPlacedThroughItsTemplatesClaim) {
  ASSERT_TRUE(cluster_->Create(BarePod(ns_)).ok());
  ProcessOutput translated = Translate(Deployment(ns_));
  ASSERT_EQ(translated.exit_code, 0) << translated.err;
  ASSERT_TRUE(cluster_->Kubectl({"apply", "-f", "-"}, translated.out).ok()) << translated.out;

  // The test control plane runs no Deployment or ReplicaSet controller (see
  // hack/control-plane/cluster.sh), so the Pod is made from the template the
  // API server stored, as the ReplicaSet controller would make it. The
  // resourceclaim controller and the scheduler that act on it are the real ones.
  auto stored = cluster_->GetJson({"get", "deployment", "infer", "-n", ns_});
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  const json& tmpl = (*stored)["spec"]["template"];
  std::string pod = "infer-0";
  json replica = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", pod}, {"namespace", ns_}, {"labels", tmpl["metadata"]["labels"]}}},
      {"spec", tmpl["spec"]}};
  ASSERT_TRUE(cluster_->Create(replica.dump()).ok());
  auto placed = WaitFor("the translated Deployment's Pod to be scheduled", 60s,
                        [&] { return !NodeOf(pod).empty(); });
  ASSERT_TRUE(placed.ok()) << placed.ToString();
  EXPECT_EQ(NodeOf(pod), "tr-b") << "only tr-b has GPUs of the class";
  ASSERT_TRUE(WaitFor("the implicit-claim Pod to be scheduled", 60s, [&] {
                return !NodeOf("implicit").empty();
              }).ok());
  EXPECT_EQ(NodeOf("implicit"), "tr-b");
  json implicit_request = ImplicitRequest();
  EXPECT_EQ(implicit_request["exactly"]["deviceClassName"], kClass) << implicit_request.dump();
  EXPECT_EQ(implicit_request["exactly"]["count"], 1);

  auto got = cluster_->GetJson({"get", "pod", pod, "-n", ns_});
  ASSERT_TRUE(got.ok());
  const json& statuses = (*got)["status"]["resourceClaimStatuses"];
  ASSERT_EQ(statuses.size(), 1u) << got->dump();
  EXPECT_EQ(statuses[0]["name"], "tr-gpu");
  std::string claim_name = statuses[0]["resourceClaimName"];
  auto claim = cluster_->GetJson({"get", "resourceclaim", claim_name, "-n", ns_});
  ASSERT_TRUE(claim.ok()) << claim.status().ToString();
  const json& request = (*claim)["spec"]["devices"]["requests"][0];
  EXPECT_EQ(request["name"], "server");
  EXPECT_EQ(request["exactly"]["deviceClassName"], kClass);
  EXPECT_EQ(request["exactly"]["count"], 1);
  const json& results = (*claim)["status"]["allocation"]["devices"]["results"];
  ASSERT_EQ(results.size(), 1u) << claim->dump();
  EXPECT_EQ(results[0]["request"], "server");
  EXPECT_EQ(results[0]["pool"], "tr-b");
  EXPECT_EQ(results[0]["driver"], "gpu.example.com");
}

// The migration step for a bare Pod: `kubectl get pod -o yaml | translate`,
// delete, apply. The output must be accepted by `kubectl apply` and the new
// Pod must go through the scheduler, which allocates its claim; with the old
// Pod's uid, resourceVersion or nodeName it would be refused or never placed.
TEST_F(TranslateTest, ScheduledBarePodFromKubectlGetIsRecreatedAndPlacedAgain) {
  ASSERT_TRUE(cluster_->Create(BarePod(ns_)).ok());
  ASSERT_TRUE(WaitFor("the bare Pod to be scheduled", 60s, [&] {
                return !NodeOf("implicit").empty();
              }).ok());
  auto live = cluster_->Kubectl(
      {"get", "pod", "implicit", "-n", ns_, "-o", "yaml", "--show-managed-fields"});
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  ProcessOutput translated = Translate(live->out);
  ASSERT_EQ(translated.exit_code, 0) << translated.err;
  for (const char* gone : {"uid:", "resourceVersion:", "nodeName:", "status:"}) {
    EXPECT_EQ(translated.out.find(gone), std::string::npos) << gone << "\n" << translated.out;
  }
  ASSERT_TRUE(cluster_
                  ->Kubectl({"delete", "pod", "implicit", "-n", ns_, "--grace-period=0", "--force",
                             "--wait=true"})
                  .ok());
  auto applied = cluster_->Kubectl({"apply", "-f", "-"}, translated.out);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString() << "\n" << translated.out;
  ASSERT_TRUE(WaitFor("the recreated Pod to be scheduled", 60s, [&] {
                return !NodeOf("implicit").empty();
              }).ok());
  EXPECT_EQ(NodeOf("implicit"), "tr-b");
  std::string claim_name;
  auto allocated = WaitFor("the recreated Pod's claim to be allocated", 60s, [&] {
    auto pod = cluster_->GetJson({"get", "pod", "implicit", "-n", ns_});
    if (!pod.ok() || (*pod)["status"]["resourceClaimStatuses"].size() != 1) return false;
    claim_name = (*pod)["status"]["resourceClaimStatuses"][0].value("resourceClaimName", "");
    auto claim = cluster_->GetJson({"get", "resourceclaim", claim_name, "-n", ns_});
    return claim.ok() && claim->contains("status") && (*claim)["status"].contains("allocation");
  });
  EXPECT_TRUE(allocated.ok()) << allocated.ToString() << " claim " << claim_name;
}

}  // namespace
}  // namespace dra::testing
