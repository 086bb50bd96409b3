// The production install, `kubectl apply -k crds/` then `kubectl apply -k
// manifests/`, against the real API server: the server-side dry run accepts
// every object, and manifests/ holds no CRD (its deletion must leave
// DeviceHealths and their taints, UninstallTest); what it installs
// is the complete set (restricted Pod Security namespace, metrics Service,
// NetworkPolicy for the metrics and probe ports only, PodDisruptionBudget,
// grace period longer than the drain); and the real Pod Security admission
// admits a Pod made from the Deployment's template without a warning while
// it refuses a privileged one. (The test control plane runs no Deployment
// controller, so the Pod is created from the template directly.)
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/ClusterTest.h"
#include "tests/support/KustomizeOverlay.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kNamespace = "dra-system";

class InstallManifestsTest : public ClusterTest {
 protected:
  void TearDown() override {
    if (cluster_ && touched_) {
      (void)cluster_->Kubectl(
          {"delete", "-k", Manifests(), "--ignore-not-found", "--wait=true", "--timeout=90s"});
    }
  }

  static std::string Manifests() { return std::string(DRA_REPO_ROOT) + "/manifests"; }

  // kubectl create -f - of `pod`, with its stderr (Pod Security warnings).
  kube::Result<ProcessOutput> CreatePod(const json& pod) {
    return cluster_->Kubectl({"create", "-f", "-", "-o", "name"}, pod.dump());
  }

  json TemplatePod(const std::string& name) {
    auto deployment = cluster_->GetJson({"get", "deployment", "dra-controller", "-n", kNamespace});
    EXPECT_TRUE(deployment.ok()) << deployment.status().ToString();
    if (!deployment.ok()) return json();
    const json& tmpl = (*deployment)["spec"]["template"];
    return {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata",
             {{"name", name}, {"namespace", kNamespace}, {"labels", tmpl["metadata"]["labels"]}}},
            {"spec", tmpl["spec"]}};
  }

  bool touched_ = false;
};

TEST_F(InstallManifestsTest, ServerSideDryRunAcceptsTheWholeInstall) {
  // Namespaced objects need their namespace to exist even in a dry run.
  touched_ = true;
  auto ns = cluster_->Kubectl(
      {"apply", "-f", std::string(DRA_REPO_ROOT) + "/manifests/base/namespace.yaml"});
  ASSERT_TRUE(ns.ok()) << ns.status().ToString();
  auto crds =
      cluster_->Kubectl({"apply", "-k", std::string(DRA_REPO_ROOT) + "/crds", "--dry-run=server"});
  ASSERT_TRUE(crds.ok()) << crds.status().ToString();
  auto dry = cluster_->Kubectl({"apply", "-k", Manifests(), "--dry-run=server"});
  ASSERT_TRUE(dry.ok()) << dry.status().ToString();
  EXPECT_EQ(dry->out.find("customresourcedefinition"), std::string::npos) << dry->out;
  dry->out += crds->out;
  dry->err += crds->err;
  for (const char* object :
       {"customresourcedefinition.apiextensions.k8s.io/devicehealths.dra-controller.dev",
        "serviceaccount/dra-controller", "clusterrole.rbac.authorization.k8s.io/dra-controller",
        "clusterrole.rbac.authorization.k8s.io/dra-controller-metrics-reader",
        "clusterrolebinding.rbac.authorization.k8s.io/dra-controller",
        "clusterrole.rbac.authorization.k8s.io/dra-controller-reviews",
        "clusterrole.rbac.authorization.k8s.io/dra-controller-device-health",
        "clusterrolebinding.rbac.authorization.k8s.io/dra-controller-device-health",
        "clusterrole.rbac.authorization.k8s.io/dra-controller-devicehealth-editor",
        "clusterrole.rbac.authorization.k8s.io/dra-controller-devicehealth-viewer",
        "validatingadmissionpolicy.admissionregistration.k8s.io/"
        "dra-controller-devicehealth-sources",
        "role.rbac.authorization.k8s.io/dra-controller-leader-election",
        "rolebinding.rbac.authorization.k8s.io/dra-controller-leader-election",
        "role.rbac.authorization.k8s.io/dra-controller-alert-resolutions",
        "rolebinding.rbac.authorization.k8s.io/dra-controller-alert-resolutions",
        "service/dra-controller", "deployment.apps/dra-controller",
        "networkpolicy.networking.k8s.io/dra-controller",
        "poddisruptionbudget.policy/dra-controller"}) {
    // "configured" or "unchanged" where an earlier test installed the object
    // (the DeviceHealth CRD stays installed for the rest of the suite).
    bool accepted = false;
    for (const char* verb : {" created", " configured", " unchanged"}) {
      accepted |=
          dry->out.find(std::string(object) + verb + " (server dry run)") != std::string::npos;
    }
    EXPECT_TRUE(accepted) << object << " in:\n" << dry->out;
  }
  EXPECT_EQ(dry->err.find("Warning"), std::string::npos) << dry->err;
}

TEST_F(InstallManifestsTest, InstallsTheProductionSet) {
  touched_ = true;
  auto applied = cluster_->Kubectl({"apply", "-k", Manifests()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  auto ns = cluster_->GetJson({"get", "namespace", kNamespace});
  ASSERT_TRUE(ns.ok());
  for (const char* mode : {"enforce", "audit", "warn"}) {
    EXPECT_EQ(
        (*ns)["metadata"]["labels"].value(std::string("pod-security.kubernetes.io/") + mode, ""),
        "restricted")
        << mode;
  }
  auto policy = cluster_->GetJson({"get", "networkpolicy", "dra-controller", "-n", kNamespace});
  ASSERT_TRUE(policy.ok());
  EXPECT_EQ((*policy)["spec"]["policyTypes"], json({"Ingress"}));
  ASSERT_EQ((*policy)["spec"]["ingress"].size(), 1u);
  EXPECT_EQ((*policy)["spec"]["ingress"][0]["ports"],
            json({{{"port", 8443}, {"protocol", "TCP"}},
                  {{"port", 8444}, {"protocol", "TCP"}},
                  {{"port", 8081}, {"protocol", "TCP"}}}));
  EXPECT_FALSE((*policy)["spec"]["ingress"][0].contains("from"));  // any source, these ports only
  auto pdb = cluster_->GetJson({"get", "pdb", "dra-controller", "-n", kNamespace});
  ASSERT_TRUE(pdb.ok());
  EXPECT_EQ((*pdb)["spec"]["maxUnavailable"], 1);
  auto service = cluster_->GetJson({"get", "service", "dra-controller", "-n", kNamespace});
  ASSERT_TRUE(service.ok());
  EXPECT_EQ((*service)["spec"]["ports"][0]["port"], 8443);
  EXPECT_EQ((*service)["spec"]["ports"][0]["targetPort"], "https-metrics");
  EXPECT_EQ((*service)["spec"]["ports"][1]["port"], 8444);
  EXPECT_EQ((*service)["spec"]["ports"][1]["targetPort"], "alerts");
  auto deployment = cluster_->GetJson({"get", "deployment", "dra-controller", "-n", kNamespace});
  ASSERT_TRUE(deployment.ok());
  const json& spec = (*deployment)["spec"]["template"]["spec"];
  json args = spec["containers"][0]["args"];
  EXPECT_NE(std::find(args.begin(), args.end(), "--graceful-shutdown-timeout=30s"), args.end());
  EXPECT_GT(spec["terminationGracePeriodSeconds"].get<int>(), 30);
  EXPECT_EQ((*deployment)["spec"]["replicas"], 2);
  const json& resources = spec["containers"][0]["resources"];
  EXPECT_EQ(resources["requests"]["memory"], "256Mi");
  EXPECT_EQ(resources["limits"]["memory"], "768Mi");
  EXPECT_TRUE(spec["containers"][0].contains("livenessProbe"));
  EXPECT_TRUE(spec["containers"][0].contains("readinessProbe"));
  // The monitoring component no longer brings a second metrics Service.
  auto component = cluster_->Kubectl({"kustomize", Manifests() + "/monitoring"});
  ASSERT_TRUE(component.ok()) << component.status().ToString();
  EXPECT_EQ(component->out.find("kind: Service\n"), std::string::npos);
}

TEST_F(InstallManifestsTest, RestrictedPodSecurityAdmitsTheTemplateAndRefusesPrivileged) {
  touched_ = true;
  auto applied = cluster_->Kubectl({"apply", "-k", Manifests()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  json pod = TemplatePod("dra-controller-psa-test");
  ASSERT_FALSE(pod.is_null());
  auto created = CreatePod(pod);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->out, "pod/dra-controller-psa-test\n");
  EXPECT_EQ(created->err.find("violate"), std::string::npos) << created->err;
  EXPECT_EQ(created->err.find("Warning"), std::string::npos) << created->err;

  json privileged = TemplatePod("dra-controller-psa-privileged");
  privileged["spec"]["containers"][0]["securityContext"] = {{"privileged", true}};
  auto refused = CreatePod(privileged);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("violates PodSecurity \"restricted:latest\""),
            std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("privileged"), std::string::npos);

  json root = TemplatePod("dra-controller-psa-root");
  root["spec"]["securityContext"] = {{"runAsUser", 0}};
  root["spec"]["containers"][0].erase("securityContext");
  auto root_refused = CreatePod(root);
  ASSERT_FALSE(root_refused.ok());
  EXPECT_NE(root_refused.status().message().find("violates PodSecurity"), std::string::npos)
      << root_refused.status().message();
  (void)cluster_->Kubectl({"delete", "pod", "dra-controller-psa-test", "-n", kNamespace,
                           "--grace-period=0", "--force"});
}

// The roles for people, bound cluster-wide to three users as an admin would:
// `view` (and so `edit`) gains reading DeviceHealths through the viewer's
// aggregation, `edit` does not gain writing them, and the editor writes them
// but may not act as a monitoring source.
TEST_F(InstallManifestsTest, DeviceHealthRolesForPeopleAggregateOnlyTheViewer) {
  touched_ = true;
  auto applied = cluster_->Kubectl({"apply", "-k", Manifests()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  const std::vector<std::pair<std::string, std::string>> people{
      {"view", "dra-test-viewer"},
      {"edit", "dra-test-editor-of-apps"},
      {"dra-controller-devicehealth-editor", "dra-test-health-editor"}};
  for (const auto& [role, user] : people) {
    auto bound = cluster_->Kubectl(
        {"create", "clusterrolebinding", user, "--clusterrole", role, "--user", user});
    ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  }
  auto can = [&](const std::string& verb, const std::string& user) {
    auto out = cluster_->Kubectl(
        {"auth", "can-i", verb, "devicehealths.dra-controller.dev", "--as", user});
    return out.ok() && out->out.rfind("yes", 0) == 0;
  };
  // kube-controller-manager's aggregation controller fills view and edit.
  for (const char* user : {"dra-test-viewer", "dra-test-editor-of-apps"}) {
    auto reads = WaitFor(std::string(user) + " may list DeviceHealths", 30s,
                         [&] { return can("list", user); });
    EXPECT_TRUE(reads.ok()) << reads.ToString();
  }
  EXPECT_FALSE(can("create", "dra-test-viewer"));
  EXPECT_FALSE(can("create", "dra-test-editor-of-apps"));
  EXPECT_FALSE(can("delete", "dra-test-editor-of-apps"));
  for (const char* verb : {"list", "create", "patch", "update", "delete"}) {
    EXPECT_TRUE(can(verb, "dra-test-health-editor")) << verb;
  }
  EXPECT_FALSE(can("act-as-source", "dra-test-health-editor"));
  for (const auto& [role, user] : people) {
    (void)cluster_->Kubectl({"delete", "clusterrolebinding", user, "--ignore-not-found"});
  }
}

// The tls component (a mounted Secret as the serving certificate): the API
// server accepts the patched Deployment, and a Pod of its template is admitted
// as "restricted" and mounts the whole Secret (a renewal reaches it).
TEST_F(InstallManifestsTest, TheTlsComponentIsAcceptedAndAdmittedAsRestricted) {
  touched_ = true;
  KustomizeOverlay overlay({"manifests"}, {"manifests/tls"});
  auto applied = cluster_->Kubectl({"apply", "-k", overlay.path()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(applied->err.find("Warning"), std::string::npos) << applied->err;
  json pod = TemplatePod("dra-controller-psa-tls");
  ASSERT_FALSE(pod.is_null());
  const json& container = pod["spec"]["containers"][0];
  ASSERT_EQ(container["volumeMounts"].size(), 1u) << container;
  EXPECT_FALSE(container["volumeMounts"][0].contains("subPath"));
  EXPECT_EQ(pod["spec"]["volumes"][0]["secret"]["secretName"], "dra-controller-tls");
  auto created =
      cluster_->Kubectl({"create", "-f", "-", "-o", "name", "--dry-run=server"}, pod.dump());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->err.find("Warning"), std::string::npos) << created->err;
}

}  // namespace
}  // namespace dra::testing
