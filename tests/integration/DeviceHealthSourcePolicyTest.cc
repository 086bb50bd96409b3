// The monitoring sources' DeviceHealths cannot be taken by a person who may
// create DeviceHealths: with manifests/features/device-health/devicehealth-source-policy.yaml
// applied, a user bound to create/patch/update/delete on devicehealths (as a
// person who writes them by hand is) cannot create an object under a source's
// name (kubelet-..., alert-...) nor with the dra-controller.dev/source label,
// nor add, change or remove that label; a requester allowed the verb
// act-as-source (as the controller's ClusterRole is) can. The person keeps
// what the docs give them: setting spec.state Healthy on a source's object
// and deleting it. Without the policy the squat is accepted: the source's
// name then belongs to a label-less "person's" object and the source stays
// silent for that GPU.
#include <gtest/gtest.h>

#include "tests/support/ClusterTest.h"
#include "tests/support/RepoRoot.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPerson = "dra-test-health-writer";
constexpr const char* kSourceBot = "dra-test-health-source";
constexpr const char* kSourceName = "kubelet-node-x-gpu-0-0123456789ab";
constexpr const char* kPersonsName = "dra-test-persons-gpu";

std::string Health(const std::string& name, const std::string& label) {
  std::string labels =
      label.empty() ? "" : "  labels:\n    dra-controller.dev/source: " + label + "\n";
  return "apiVersion: dra-controller.dev/v1alpha1\nkind: DeviceHealth\nmetadata:\n  name: " + name +
         "\n" + labels +
         "spec:\n  driver: gpu.example.com\n  pool: node-x\n  device: gpu-0\n"
         "  state: Unhealthy\n";
}

std::string WriterRole(const std::string& user, bool act_as_source) {
  std::string verbs = act_as_source
                          ? R"(["get","create","patch","update","delete","act-as-source"])"
                          : R"(["get","create","patch","update","delete"])";
  return "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: " + user +
         "\nrules:\n  - apiGroups: [\"dra-controller.dev\"]\n    resources: [\"devicehealths\"]\n"
         "    verbs: " +
         verbs +
         "\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n"
         "  name: " +
         user +
         "\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: " + user +
         "\nsubjects:\n  - apiGroup: rbac.authorization.k8s.io\n    kind: User\n    name: " + user +
         "\n";
}

class DeviceHealthSourcePolicyTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    ASSERT_TRUE(cluster_->InstallDeviceHealthCrd().ok());
    Cleanup();
    ASSERT_TRUE(cluster_->Apply(WriterRole(kPerson, false)).ok());
    ASSERT_TRUE(cluster_->Apply(WriterRole(kSourceBot, true)).ok());
    auto applied = cluster_->Kubectl({"apply", "-f", Policy()});
    ASSERT_TRUE(applied.ok()) << applied.status().ToString();
    // The API server compiles a new policy asynchronously: wait until it denies.
    auto denied = WaitFor(
        "the policy to deny a person's create under a source's name", TestTime::Scaled(30s), [&] {
          auto created = As(kPerson, {"create", "-f", "-"}, Health(kSourceName, ""));
          if (created.ok()) (void)cluster_->Kubectl({"delete", "devicehealth", kSourceName});
          return !created.ok();
        });
    ASSERT_TRUE(denied.ok()) << denied.ToString();
  }

  void TearDown() override {
    if (cluster_ && !IsSkipped()) {
      Cleanup();
      (void)cluster_->Kubectl({"delete", "-f", Policy(), "--ignore-not-found"});
    }
  }

  void Cleanup() {
    for (const char* user : {kPerson, kSourceBot}) {
      (void)cluster_->Kubectl({"delete", "clusterrolebinding", user, "--ignore-not-found"});
      (void)cluster_->Kubectl({"delete", "clusterrole", user, "--ignore-not-found"});
    }
    for (const char* name : {kSourceName, kPersonsName}) {
      (void)cluster_->Kubectl({"delete", "devicehealth", name, "--ignore-not-found"});
    }
  }

  static std::string Policy() {
    return RepoRoot::Path("manifests/features/device-health/devicehealth-source-policy.yaml");
  }

  kube::Result<ProcessOutput> As(const std::string& user, std::vector<std::string> args,
                                 const std::string& input = "") {
    args.push_back("--as=" + user);
    return cluster_->Kubectl(args, input);
  }

  // The `health-source-policy` row of `dra-controller check -o json`.
  std::pair<std::string, std::string> CheckRow() {
    auto run = Subprocess::Run({std::string(DRA_BINARY_DIR) + "/dra-controller", "check", "-o",
                                "json", "--kubeconfig", cluster_->kubeconfig()});
    if (!run.ok()) return {"error", run.status().ToString()};
    auto doc = nlohmann::json::parse(run->out, nullptr, false);
    if (doc.is_discarded() || !doc.contains("results")) return {"unparsed", run->out + run->err};
    for (const auto& row : doc["results"]) {
      if (row.value("name", "") == "health-source-policy") {
        return {row.value("result", ""), row.value("detail", "")};
      }
    }
    return {"absent", run->out};
  }

  static std::string Why(const kube::Result<ProcessOutput>& r) {
    return r.ok() ? "accepted" : r.status().message();
  }
};

TEST_F(DeviceHealthSourcePolicyTest, APersonCannotTakeASourcesNameOrLabel) {
  if (Skipped()) return;
  auto squat = As(kPerson, {"create", "-f", "-"}, Health(kSourceName, ""));
  ASSERT_FALSE(squat.ok()) << "a person took the kubelet source's name";
  EXPECT_NE(Why(squat).find("reserved for the monitoring sources"), std::string::npos)
      << Why(squat);
  EXPECT_FALSE(As(kPerson, {"create", "-f", "-"}, Health("alert-gpu-abc-0123456789ab", "")).ok());

  auto labelled = As(kPerson, {"create", "-f", "-"}, Health(kPersonsName, "kubelet"));
  EXPECT_FALSE(labelled.ok()) << "a person's object carried a source's label";

  auto own = As(kPerson, {"create", "-f", "-"}, Health(kPersonsName, ""));
  ASSERT_TRUE(own.ok()) << Why(own);
  auto relabel = As(
      kPerson, {"label", "devicehealth", kPersonsName, "dra-controller.dev/source=alertmanager"});
  EXPECT_FALSE(relabel.ok()) << "a person labelled their object as a source's";
}

TEST_F(DeviceHealthSourcePolicyTest, TheSourceWritesAndAPersonMayReleaseOrDelete) {
  if (Skipped()) return;
  auto sourced = As(kSourceBot, {"create", "-f", "-"}, Health(kSourceName, "kubelet"));
  ASSERT_TRUE(sourced.ok()) << Why(sourced);

  auto unlabel = As(kPerson, {"label", "devicehealth", kSourceName, "dra-controller.dev/source-"});
  EXPECT_FALSE(unlabel.ok()) << "a person removed the source's label";
  auto steal = As(kPerson, {"label", "--overwrite", "devicehealth", kSourceName,
                            "dra-controller.dev/source=alertmanager"});
  EXPECT_FALSE(steal.ok()) << "a person changed the source's label";

  auto release = As(kPerson, {"patch", "devicehealth", kSourceName, "--type=merge", "-p",
                              R"({"spec":{"state":"Healthy"}})"});
  EXPECT_TRUE(release.ok()) << Why(release);
  auto gone = As(kPerson, {"delete", "devicehealth", kSourceName});
  EXPECT_TRUE(gone.ok()) << Why(gone);
}

TEST_F(DeviceHealthSourcePolicyTest, CheckWarnsWhenThePolicyIsMissing) {
  if (Skipped()) return;
  auto [installed, why] = CheckRow();
  EXPECT_EQ(installed, "pass") << why;
  ASSERT_TRUE(cluster_->Kubectl({"delete", "-f", Policy()}).ok());
  auto [missing, detail] = CheckRow();
  EXPECT_EQ(missing, "warn") << detail;
  EXPECT_NE(detail.find("silence that source"), std::string::npos) << detail;
}

}  // namespace
}  // namespace dra::testing
