// Least privilege, proven one rule at a time. dra-controller runs as its
// service account exactly as in a Pod (a TokenRequest token, the cluster CA
// and the namespace mounted at the in-cluster path in a private mount
// namespace, KUBERNETES_SERVICE_HOST/PORT set) with every feature on: leader
// election, secure metrics, device health, the kubelet's device health
// reports (a Pod whose status reports an Unhealthy device), the Alertmanager
// webhook (a firing alert naming a fake GPU by its UUID, posted with the token
// of a ServiceAccount that manifests/monitoring/alertmanager-rbac.yaml's
// ClusterRole is bound to), extended-resource findings and repair, and the
// leak audit with deletion (kube-controller-manager is stopped so that a
// hand-made leaked implicit claim stays leaked). The install is the full one:
// manifests/ (base and device health) with the components of the two opt-in
// features. First with its RBAC as shipped (no "forbidden" but the webhook's
// 403 to a token without the sender's binding; the webhook answers the
// sender's alert 200 and writes its DeviceHealth), then once per rule of the
// ClusterRoles and Roles bound to the controller's service account with that
// rule alone removed: the feature needing the
// rule logs the apiserver's denial naming verb, resource and API group, every
// "forbidden" line in the log is one of those, and the rest keeps working
// (the leader is elected, the inventory syncs, /metrics answers 200; without
// the DeviceHealth read rule the repair and the leak audit still act, without
// the Pod/Node read rule device health still applies its DeviceTaintRule; the
// feature held back is named in the log with the informer it waits for;
// without the DeviceHealth write rule the webhook answers the sender's alert
// 503 and logs the denial). It also asserts that no role of the install has a
// wildcard or Secrets, that each rule of the controller's is in one role
// only, and that every rule has an expectation here.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>

#include "src/http/HttpTransport.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/KustomizeOverlay.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kNamespace = "dra-system";
constexpr const char* kUser = "system:serviceaccount:dra-system:dra-controller";
constexpr const char* kScraperBinding = "dra-controller-rbac-test-scraper";
constexpr const char* kSurvivorClass = "rbac-z-survivor.example.com";
constexpr const char* kKcm = "kube-controller-manager";
constexpr const char* kLeakPod = "rbac-leak-owner";  // in "default", phase Succeeded
constexpr const char* kKubeletSource = "dra-controller.dev/source=kubelet";
constexpr const char* kAlertSource = "dra-controller.dev/source=alertmanager";
constexpr const char* kRuleOwner = "dra-controller.dev/device-health";  // a DeviceTaintRule's label
// The webhook's callers: "alert-sender" is bound to the shipped sender role
// (under a binding name of the test's own), "alert-stranger" to nothing.
constexpr const char* kSender = "alert-sender";
constexpr const char* kStranger = "alert-stranger";
constexpr const char* kSenderRole = "dra-controller-alert-sender";
constexpr const char* kSenderBinding = "dra-controller-alert-sender-rbac-test";
// One fake GPU for the webhook's alert to name: the inventory must know it.
constexpr const char* kAlertNode = "rbac-alert-node";
const std::vector<std::string> kAlertFleet{std::string(kAlertNode) + ":1:80Gi:gpu-rbac"};
constexpr const char* kWebhookServing = "serving the Alertmanager webhook on";

// What removing one rule must break: each line is the apiserver's denial as
// the controller logs it; `leads`, `syncs`, `metrics`, `health_works` (the
// DeviceHealth gets its DeviceTaintRule and status) and `extended_works` (the
// mapping repair and the leak audit act) say what keeps working; `waiting`
// is the start of the line naming a feature held back by an unsynced informer;
// `webhook` is the webhook's answer to the sender's alert (0: none is posted).
struct Expectation {
  std::string rule;  // "group/resource,resource:verb,verb" (RuleKey)
  std::string feature;
  std::vector<std::string> denials;
  bool leads = true;
  bool syncs = true;
  bool metrics = true;
  bool health_works = false;  // asserted when true; the full run asserts everything
  bool extended_works = false;
  std::string waiting = "";
  int webhook = 0;
};

// Reads are denied on the initial watch: informers sync by watch-list
// (sendInitialEvents) where the API server serves it, as it does here.
std::string Denial(const std::string& verb, const std::string& resource, const std::string& group) {
  return "cannot " + verb + " resource \"" + resource + "\" in API group \"" + group + "\"";
}

const std::vector<Expectation>& Expectations() {
  static const std::vector<Expectation> kAll = {
      {"resource.k8s.io/deviceclasses,resourceslices,resourceclaims,devicetaintrules:get,list,"
       "watch",
       "device inventory",
       {Denial("watch", "deviceclasses", "resource.k8s.io"),
        Denial("watch", "resourceslices", "resource.k8s.io"),
        Denial("watch", "resourceclaims", "resource.k8s.io"),
        Denial("watch", "devicetaintrules", "resource.k8s.io")},
       true,
       false},
      {"dra-controller.dev/devicehealths:get,list,watch",
       "device health (reading DeviceHealths); the inventory, extended resources and the "
       "leak audit keep working",
       {Denial("watch", "devicehealths", "dra-controller.dev")},
       true,
       true,
       true,
       false,
       true,
       "devicehealth waits for informer devicehealths.dra-controller.dev: not synced: "
       "Forbidden"},
      {"dra-controller.dev/devicehealths/status:patch",
       "device health (DeviceHealth status)",
       {Denial("patch", "devicehealths/status", "dra-controller.dev")}},
      {.rule = "dra-controller.dev/devicehealths:create,patch,delete,act-as-source",
       .feature = "kubelet health reports and the Alertmanager webhook (DeviceHealth writes)",
       .denials = {Denial("create", "devicehealths", "dra-controller.dev")},
       .webhook = 503},
      {"resource.k8s.io/devicetaintrules:create,patch,delete",
       "device health (DeviceTaintRule writes)",
       {Denial("patch", "devicetaintrules", "resource.k8s.io")}},
      {"/events:create,patch,list", "Events", {Denial("create", "events", "")}},
      {"/pods,nodes:get,list,watch",
       "extended resources, leak audit, allocation metrics (Pods, Nodes); the inventory and "
       "device health keep working",
       {Denial("watch", "pods", ""), Denial("watch", "nodes", "")},
       true,
       true,
       true,
       true,
       false,
       "extended-resource-leaks waits for informer pods: not synced: Forbidden"},
      // Used only where the cluster's eviction controller leaves extended-resource
      // Pods running (before 1.37): nothing asks for it on this control plane.
      {"/pods/eviction:create",
       "device health's extended-resource evictions (clusters before 1.37 only)",
       {}},
      {"resource.k8s.io/deviceclasses:patch",
       "extended resources (--repair-extended-resource-mapping)",
       {Denial("patch", "deviceclasses", "resource.k8s.io")}},
      {"resource.k8s.io/resourceclaims:delete,update",
       "leak audit (--delete-leaked-claims): deleting the leaked claim",
       {Denial("delete", "resourceclaims", "resource.k8s.io")}},
      {"resource.k8s.io/resourceclaims/status:update",
       "leak audit (--delete-leaked-claims): releasing the deleted claim's allocation",
       {Denial("update", "resourceclaims/status", "resource.k8s.io")}},
      {"resource.k8s.io/resourceclaims/binding:update",
       "leak audit (--delete-leaked-claims): clearing the allocation in that status update",
       {Denial("update", "resourceclaims/binding", "resource.k8s.io")}},
      {"authentication.k8s.io/tokenreviews:create",
       "secure metrics (authentication)",
       {Denial("create", "tokenreviews", "authentication.k8s.io")},
       true,
       true,
       false},
      {"authorization.k8s.io/subjectaccessreviews:create",
       "secure metrics (authorization)",
       {Denial("create", "subjectaccessreviews", "authorization.k8s.io")},
       true,
       true,
       false},
      // The sender's alert fires for a GPU without a DeviceHealth: the webhook
      // reads the resolutions it remembers, and applies the alert without them.
      {.rule = "/configmaps:get,update",
       .feature = "the Alertmanager webhook's memory of resolved alerts (read)",
       .denials = {Denial("get", "configmaps", "")},
       .webhook = 200},
      // Only a resolved alert writes the memory, and nothing here resolves one.
      {"/configmaps:create",
       "the Alertmanager webhook's memory of resolved alerts (first write)",
       {}},
      {"coordination.k8s.io/leases:get,create,update",
       "leader election",
       {Denial("get", "leases", "coordination.k8s.io")},
       false},
  };
  return kAll;
}

std::string ServiceAccountUser(const std::string& account) {
  return std::string("system:serviceaccount:") + kNamespace + ":" + account;
}

// The webhook's log line for the stranger's request holds this.
std::string StrangerRefused() {
  return "user \"" + ServiceAccountUser(kStranger) + "\" may not post /alertmanager";
}

// An Alertmanager notification (payload version 4) of one firing alert
// naming its GPU by the DCGM exporter's UUID label.
std::string FiringAlert(const std::string& uuid) {
  json alert = {{"status", "firing"},
                {"labels", {{"alertname", "GPUFellOffTheBus"}, {"UUID", uuid}}},
                {"annotations", {{"summary", "RbacPerRuleTest"}}},
                {"startsAt", "2026-12-05T08:00:00Z"},
                {"endsAt", "0001-01-01T00:00:00Z"},
                {"fingerprint", "0a1b2c3d4e5f6a7b"}};
  return json({{"version", "4"},
               {"status", "firing"},
               {"receiver", "dra-controller"},
               {"groupKey", "{}:{UUID=\"" + uuid + "\"}"},
               {"alerts", json::array({alert})}})
      .dump();
}

std::string Join(const json& strings) {
  std::string out;
  for (const auto& s : strings) out += (out.empty() ? "" : ",") + s.get<std::string>();
  return out;
}

// "group/resource,resource:verb,verb" of a PolicyRule.
std::string RuleKey(const json& rule) {
  std::string group =
      rule.value("apiGroups", json::array()).empty() ? "" : rule["apiGroups"][0].get<std::string>();
  return group + "/" + Join(rule.value("resources", json::array())) + ":" +
         Join(rule.value("verbs", json::array()));
}

class RbacPerRuleTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto probe = Subprocess::Run({"unshare", "--mount", "true"}, "", 10s);
    if (!probe.ok() || probe->exit_code != 0) {
      GTEST_SKIP() << "unshare --mount is not permitted here: cannot mount the service account "
                      "at the in-cluster path";
    }
    const char* dir = std::getenv("DRA_CLUSTER_DIR");
    if (dir == nullptr || *dir == '\0') GTEST_SKIP() << "needs DRA_CLUSTER_DIR to stop " << kKcm;
    cluster_dir_ = dir;
    auto crds = cluster_->Kubectl({"apply", "-k", Repo("crds")});
    ASSERT_TRUE(crds.ok()) << crds.status().ToString();
    install_ = std::make_unique<KustomizeOverlay>(
        std::vector<std::string>{"manifests"},
        std::vector<std::string>{"manifests/features/repair-extended-resource-mapping",
                                 "manifests/features/delete-leaked-claims"});
    auto applied = cluster_->Kubectl({"apply", "-k", install_->path()});
    ASSERT_TRUE(applied.ok()) << applied.status().ToString();
    applied_ = true;
    auto kind = cluster_->WaitForDeviceHealthKind();
    ASSERT_TRUE(kind.ok()) << kind.ToString();
    ASSERT_NO_FATAL_FAILURE(ReadRoles());
    ASSERT_NO_FATAL_FAILURE(MountableServiceAccount());
    ASSERT_NO_FATAL_FAILURE(CreateScraper());
    ASSERT_NO_FATAL_FAILURE(PublishAlertGpu());
    ASSERT_NO_FATAL_FAILURE(CreateAlertSenders());
    ASSERT_TRUE(cluster_->Apply(ClassManifest(kSurvivorClass)).ok());
  }

  void TearDown() override {
    controller_.reset();
    if (!cluster_) return;
    if (kcm_stopped_) {
      EXPECT_TRUE(ClusterScript("start").ok());
      EXPECT_TRUE(cluster_->WaitForControllersToCatchUp().ok());
    }
    (void)cluster_->Kubectl(
        {"delete", "resourceclaim", "-n", "default", "-l", "rbac-test=true", "--wait=false"});
    (void)cluster_->Kubectl({"delete", "pod", kLeakPod, "-n", "default", "--force",
                             "--grace-period=0", "--ignore-not-found"});
    (void)cluster_->Kubectl(
        {"delete", "clusterrolebinding", kScraperBinding, "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "deviceclass", kSurvivorClass, "--ignore-not-found"});
    (void)cluster_->Kubectl(
        {"delete", "devicehealth", "-l", "rbac-test=true", "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "pod", "-n", "default", "-l", "rbac-test=true", "--force",
                             "--grace-period=0", "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "devicehealth", "-l", kKubeletSource, "--ignore-not-found"});
    ForgetAlertHealths();
    if (senders_bound_) {
      (void)cluster_->Kubectl(
          {"delete", "clusterrolebinding", kSenderBinding, "--ignore-not-found"});
      (void)cluster_->Kubectl({"delete", "clusterrole", kSenderRole, "--ignore-not-found"});
    }
    if (fleet_applied_) RemoveFakeFleet(*cluster_, kAlertFleet);
    if (applied_) {
      (void)cluster_->Kubectl(
          {"delete", "-k", install_->path(), "--ignore-not-found", "--wait=true", "--timeout=90s"});
    }
  }

  static std::string Repo(const std::string& path) {
    return std::string(DRA_REPO_ROOT) + "/" + path;
  }

  // The objects of a manifest file (`-f`) or a kustomization (`-k`) as
  // kubectl parses them (one JSON object per document, each ending with a
  // "}" line).
  void ReadManifest(const std::string& path, std::vector<json>& items,
                    const std::string& how = "-f") {
    auto parsed = cluster_->Kubectl({"create", "--dry-run=client", how, path, "-o", "json"});
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    const std::string& out = parsed->out;
    for (size_t start = 0, end; (end = out.find("\n}\n", start)) != std::string::npos;
         start = end + 3) {
      items.push_back(json::parse(out.substr(start, end + 2 - start), nullptr, false));
      ASSERT_FALSE(items.back().is_discarded()) << out;
    }
  }

  // Every ClusterRole and Role of the install (all_roles_), and those bound
  // to the controller's service account (roles_).
  void ReadRoles() {
    std::vector<json> items;
    ASSERT_NO_FATAL_FAILURE(ReadManifest(install_->path(), items, "-k"));
    std::set<std::string> bound;  // "Kind name" of the roleRefs
    for (const json& item : items) {
      std::string kind = item.value("kind", "");
      if (kind != "ClusterRoleBinding" && kind != "RoleBinding") continue;
      for (const json& subject : item.value("subjects", json::array())) {
        if (subject.value("kind", "") == "ServiceAccount" &&
            subject.value("name", "") == "dra-controller") {
          bound.insert(item["roleRef"].value("kind", "") + " " + item["roleRef"].value("name", ""));
        }
      }
    }
    for (json& item : items) {
      std::string kind = item.value("kind", "");
      if (kind != "ClusterRole" && kind != "Role") continue;
      if (kind == "Role") item["metadata"]["namespace"] = kNamespace;
      all_roles_.push_back(item);
      if (bound.count(kind + " " + item["metadata"].value("name", ""))) roles_.push_back(item);
    }
    // base's ClusterRole and Role, device health's ClusterRole and Role, the two
    // opt-in features', the reviews'
    ASSERT_EQ(roles_.size(), 7u) << bound.size() << " bound roles";
  }

  // token, ca.crt and namespace, as the kubelet mounts them.
  void MountableServiceAccount() {
    dir_ = std::make_unique<TempDir>();
    auto token = cluster_->Kubectl({"create", "token", "dra-controller", "-n", kNamespace});
    ASSERT_TRUE(token.ok()) << token.status().ToString();
    auto ca = cluster_->Kubectl({"config", "view", "--raw", "--minify", "-o",
                                 "jsonpath={.clusters[0].cluster.certificate-authority-data}"});
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    auto pem = Subprocess::Run({"base64", "-d"}, ca->out, 10s);
    ASSERT_TRUE(pem.ok() && pem->exit_code == 0);
    sa_dir_ = dir_->path().string();
    dir_->Write("token", token->out);
    dir_->Write("ca.crt", pem->out);
    dir_->Write("namespace", kNamespace);
    auto server = cluster_->Kubectl(
        {"config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}"});
    ASSERT_TRUE(server.ok());
    std::string hostport = server->out.substr(server->out.find("//") + 2);
    host_ = hostport.substr(0, hostport.rfind(':'));
    port_ = hostport.substr(hostport.rfind(':') + 1);
  }

  void CreateScraper() {
    ASSERT_TRUE(
        cluster_->Kubectl({"create", "serviceaccount", "metrics-scraper", "-n", kNamespace}).ok());
    ASSERT_TRUE(cluster_
                    ->Kubectl({"create", "clusterrolebinding", kScraperBinding, "--clusterrole",
                               "dra-controller-metrics-reader", "--serviceaccount",
                               "dra-system:metrics-scraper"})
                    .ok());
    scraper_token_ = Token("metrics-scraper");
  }

  std::string Token(const std::string& account) {
    auto token = cluster_->Kubectl({"create", "token", account, "-n", kNamespace});
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    return token.ok() ? token->out.substr(0, token->out.find_last_not_of('\n') + 1) : "";
  }

  // The fake GPU the webhook's alert names, by the UUID its slice publishes.
  void PublishAlertGpu() {
    fleet_applied_ = true;
    auto published = ApplyFakeFleet(*cluster_, kAlertFleet);
    ASSERT_TRUE(published.ok()) << published.ToString();
    auto uuid =
        cluster_->Kubectl({"get", "resourceslice", std::string(kAlertNode) + "-gpu.example.com",
                           "-o", "jsonpath={.spec.devices[0].attributes.uuid.string}"});
    ASSERT_TRUE(uuid.ok()) << uuid.status().ToString();
    alert_uuid_ = uuid->out;
    ASSERT_TRUE(alert_uuid_.starts_with("GPU-")) << alert_uuid_;
  }

  // The webhook's callers: the shipped sender ClusterRole, bound by a copy of
  // the shipped binding whose subject is the test's sender; a stranger.
  void CreateAlertSenders() {
    for (const char* account : {kSender, kStranger}) {
      ASSERT_TRUE(cluster_->Kubectl({"create", "serviceaccount", account, "-n", kNamespace}).ok());
    }
    std::vector<json> items;
    ASSERT_NO_FATAL_FAILURE(
        ReadManifest(Repo("manifests/monitoring/alertmanager-rbac.yaml"), items));
    senders_bound_ = true;
    for (json& item : items) {
      if (item.value("kind", "") == "ClusterRoleBinding") {
        item["metadata"]["name"] = kSenderBinding;
        item["subjects"] = json::array(
            {{{"kind", "ServiceAccount"}, {"name", kSender}, {"namespace", kNamespace}}});
      }
      auto applied = cluster_->Apply(item.dump());
      ASSERT_TRUE(applied.ok()) << applied.ToString();
    }
    auto bound = WaitFor("RBAC to let " + std::string(kSender) + " send alerts", 30s, [&] {
      return CanI("post", "/alertmanager", "", ServiceAccountUser(kSender));
    });
    ASSERT_TRUE(bound.ok()) << bound.ToString();
    // The least power: the sender's right is no right on the API server.
    EXPECT_FALSE(
        CanI("create", "devicehealths.dra-controller.dev", "", ServiceAccountUser(kSender)));
    EXPECT_FALSE(CanI("post", "/alertmanager", "", ServiceAccountUser(kStranger)));
    sender_token_ = Token(kSender);
    stranger_token_ = Token(kStranger);
  }

  // cluster.sh stop|start kube-controller-manager.
  kube::Status ClusterScript(const std::string& verb) {
    auto out = Subprocess::Run(
        {"env", "CLUSTER_DIR=" + cluster_dir_, Repo("hack/control-plane/cluster.sh"), verb, kKcm},
        "", 120s);
    if (!out.ok()) return out.status();
    if (out->exit_code != 0) return kube::Status(kube::StatusCode::kInternal, out->err);
    kcm_stopped_ = verb == "stop";
    return kube::Status::Ok();
  }

  // With kube-controller-manager stopped (it would delete them): a finished
  // owner Pod, whose UID the leaked claims name.
  void StopKcmAndCreateLeakOwner() {
    ASSERT_TRUE(ClusterScript("stop").ok());
    auto pod = cluster_->Kubectl({"run", kLeakPod, "-n", "default",
                                  "--image=registry.k8s.io/pause:3.10", "--restart=Never"});
    ASSERT_TRUE(pod.ok()) << pod.status().ToString();
    auto done =
        cluster_->GetJson({"patch", "pod", kLeakPod, "-n", "default", "--subresource=status",
                           "--type=merge", "-p", R"({"status": {"phase": "Succeeded"}})"});
    ASSERT_TRUE(done.ok()) << done.status().ToString();
    leak_owner_uid_ = (*done)["metadata"].value("uid", "");
  }

  // An allocated implicit claim of the finished owner, not reserved: leaked.
  void CreateLeakedClaim(const std::string& name) {
    json claim = {
        {"apiVersion", "resource.k8s.io/v1"},
        {"kind", "ResourceClaim"},
        {"metadata",
         {{"name", name},
          {"namespace", "default"},
          {"labels", {{"rbac-test", "true"}}},
          {"annotations", {{"resource.kubernetes.io/extended-resource-claim", "true"}}},
          {"finalizers", {"resource.kubernetes.io/delete-protection"}},
          {"ownerReferences",
           {{{"apiVersion", "v1"},
             {"kind", "Pod"},
             {"name", kLeakPod},
             {"uid", leak_owner_uid_},
             {"controller", true}}}}}},
        {"spec",
         {{"devices",
           {{"requests",
             {{{"name", "gpu"}, {"exactly", {{"deviceClassName", kSurvivorClass}}}}}}}}}}};
    ASSERT_TRUE(cluster_->Create(claim.dump()).ok());
    auto allocated =
        cluster_->Kubectl({"patch", "resourceclaim", name, "-n", "default", "--subresource=status",
                           "--type=merge", "-p",
                           R"({"status": {"allocation": {"devices": {"results": [{"request": "gpu",
             "driver": "gpu.example.com", "pool": "rbac-leak", "device": "gpu-0"}]}}}})"});
    ASSERT_TRUE(allocated.ok()) << allocated.status().ToString();
  }

  // The claim `name`, allocated `pool`/gpu-0 and reserved for the Pod `name`,
  // as the scheduler leaves it: the kubelet source believes only reports of
  // devices the Pod's claims hold.
  void CreateClaimHeldBy(const std::string& name, const std::string& pool) {
    auto pod = cluster_->GetJson({"get", "pod", name, "-n", "default", "-o", "json"});
    ASSERT_TRUE(pod.ok()) << pod.status().ToString();
    json claim = {
        {"apiVersion", "resource.k8s.io/v1"},
        {"kind", "ResourceClaim"},
        {"metadata",
         {{"name", name}, {"namespace", "default"}, {"labels", {{"rbac-test", "true"}}}}},
        {"spec",
         {{"devices",
           {{"requests",
             {{{"name", "gpu"}, {"exactly", {{"deviceClassName", kSurvivorClass}}}}}}}}}}};
    ASSERT_TRUE(cluster_->Create(claim.dump()).ok());
    json status = {
        {"status",
         {{"allocation",
           {{"devices",
             {{"results", json::array({{{"request", "gpu"},
                                        {"driver", "gpu.example.com"},
                                        {"pool", pool},
                                        {"device", "gpu-0"}}})}}}}},
          {"reservedFor", json::array({{{"resource", "pods"},
                                        {"name", name},
                                        {"uid", (*pod)["metadata"].value("uid", "")}}})}}}};
    auto patched = cluster_->Kubectl({"patch", "resourceclaim", name, "-n", "default",
                                      "--subresource=status", "--type=merge", "-p", status.dump()});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }

  // A Pod on a node without a kubelet whose status reports, as the kubelet
  // does, its claim's device `pool`/gpu-0 Unhealthy: the kubelet source
  // writes a DeviceHealth for it.
  void CreateReportingPod(const std::string& name, const std::string& pool) {
    json container = {
        {"name", "main"},
        {"image", "registry.k8s.io/pause:3.10"},
        {"resources", {{"claims", json::array({{{"name", "gpu"}, {"request", "gpu"}}})}}}};
    json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata",
                 {{"name", name}, {"namespace", "default"}, {"labels", {{"rbac-test", "true"}}}}},
                {"spec",
                 {{"nodeName", "rbac-no-kubelet"},
                  {"automountServiceAccountToken", false},
                  {"resourceClaims", json::array({{{"name", "gpu"}, {"resourceClaimName", name}}})},
                  {"containers", json::array({container})}}}};
    ASSERT_TRUE(cluster_->Create(pod.dump()).ok());
    ASSERT_NO_FATAL_FAILURE(CreateClaimHeldBy(name, pool));
    json report = {{"name", "claim:gpu/gpu"},
                   {"resources", json::array({{{"resourceID", "gpu.example.com/" + pool + "/gpu-0"},
                                               {"health", "Unhealthy"}}})}};
    json status = {{"name", "main"},
                   {"image", "registry.k8s.io/pause:3.10"},
                   {"imageID", ""},
                   {"ready", false},
                   {"restartCount", 0},
                   {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}},
                   {"allocatedResourcesStatus", json::array({report})}};
    auto patched = cluster_->Kubectl(
        {"patch", "pod", name, "-n", "default", "--subresource=status", "--type=merge", "-p",
         json{{"status", {{"containerStatuses", json::array({status})}}}}.dump()});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }

  // The kubelet source acted: a DeviceHealth labelled with it names `pool`.
  void ExpectKubeletSourceWorked(const std::string& pool) {
    ExpectSourcedHealth(kKubeletSource, "/spec/pool"_json_pointer, pool,
                        "a kubelet DeviceHealth for pool " + pool, 30s);
  }

  // Within `timeout`, a DeviceHealth with `label` whose `field` is `value`.
  void ExpectSourcedHealth(const char* label, const json::json_pointer& field,
                           const std::string& value, const std::string& what,
                           std::chrono::seconds timeout) {
    auto written = WaitFor(
        what, timeout,
        [&] {
          auto got = cluster_->GetJson({"get", "devicehealths", "-l", label});
          if (!got.ok()) return false;
          for (const auto& item : got->value("items", json::array())) {
            if (item.value(field, std::string()) == value) return true;
          }
          return false;
        },
        [&] { return controller_->Output(); });
    EXPECT_TRUE(written.ok()) << written.ToString();
  }

  // Removes what a run left of a leaked claim (its finalizer, then the claim).
  void ForgetClaim(const std::string& name) {
    (void)cluster_->Kubectl({"patch", "resourceclaim", name, "-n", "default", "--type=merge", "-p",
                             R"({"metadata": {"finalizers": null}})"});
    (void)cluster_->Kubectl(
        {"delete", "resourceclaim", name, "-n", "default", "--ignore-not-found", "--wait=false"});
  }

  static std::string ClassManifest(const std::string& name) {
    return json({{"apiVersion", "resource.k8s.io/v1"},
                 {"kind", "DeviceClass"},
                 {"metadata", {{"name", name}}},
                 {"spec",
                  {{"extendedResourceName", "example.com/rbac-test"},
                   {"selectors",
                    json::array(
                        {{{"cel",
                           {{"expression", "device.driver == \"rbac-test.example.com\""}}}}})}}}})
        .dump();
  }

  static std::string HealthManifest(const std::string& name) {
    return json({{"apiVersion", "dra-controller.dev/v1alpha1"},
                 {"kind", "DeviceHealth"},
                 {"metadata", {{"name", name}, {"labels", {{"rbac-test", "true"}}}}},
                 {"spec",
                  {{"driver", "gpu.example.com"},
                   {"pool", name},
                   {"device", "gpu-0"},
                   {"state", "Degraded"},
                   {"reason", "RbacTest"}}}})
        .dump();
  }

  // Applies the ClusterRole and Role with rule `removed` (a RuleKey) left
  // out, or both whole for "", and waits until the authorizer agrees.
  void ApplyRolesWithout(const std::string& removed) {
    for (json role : roles_) {
      json kept = json::array();
      for (const auto& rule : role["rules"]) {
        if (RuleKey(rule) != removed) kept.push_back(rule);
      }
      role["rules"] = kept;
      ASSERT_TRUE(cluster_->Apply(role.dump()).ok());
    }
    for (const json& role : roles_) {
      for (const auto& rule : role["rules"]) {
        // Only the rule removed now and the one removed last time changed.
        if (RuleKey(rule) != removed && RuleKey(rule) != last_removed_) continue;
        bool want = RuleKey(rule) != removed;
        std::string group = rule["apiGroups"][0];
        std::string resource = rule["resources"][0];
        std::string sub =
            resource.find('/') == std::string::npos ? "" : resource.substr(resource.find('/') + 1);
        std::string what =
            resource.substr(0, resource.find('/')) + (group.empty() ? "" : "." + group);
        // A rule limited to names is asked about its first name.
        if (!rule.value("resourceNames", json::array()).empty()) {
          what += "/" + rule["resourceNames"][0].get<std::string>();
        }
        auto agreed = WaitFor("RBAC to " + std::string(want ? "allow " : "deny ") + what, 30s, [&] {
          return CanI(rule["verbs"][0].get<std::string>(), what, sub) == want;
        });
        ASSERT_TRUE(agreed.ok()) << agreed.ToString();
      }
    }
    last_removed_ = removed;
  }

  bool CanI(const std::string& verb, const std::string& what, const std::string& subresource,
            const std::string& user = kUser) {
    auto out = cluster_->Kubectl({"auth", "can-i", verb, what, "--subresource=" + subresource,
                                  "--as", user, "-n", kNamespace});
    return out.ok() && out->out.rfind("yes", 0) == 0;
  }

  // dra-controller as in a Pod: the service account at the in-cluster path
  // in a private mount namespace, KUBERNETES_SERVICE_HOST/PORT, no kubeconfig.
  void StartInCluster() {
    std::string script =
        "mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount && "
        "mount --bind \"$0\" /run/secrets/kubernetes.io/serviceaccount && exec \"$@\"";
    std::vector<std::string> argv{"unshare",
                                  "--mount",
                                  "--propagation",
                                  "private",
                                  "env",
                                  "-u",
                                  "KUBECONFIG",
                                  "KUBERNETES_SERVICE_HOST=" + host_,
                                  "KUBERNETES_SERVICE_PORT=" + port_,
                                  "sh",
                                  "-c",
                                  script,
                                  sa_dir_,
                                  std::string(DRA_BINARY_DIR) + "/dra-controller",
                                  "run",
                                  "--leader-elect",
                                  "--leader-election-namespace",
                                  kNamespace,
                                  "--leader-elect-lease-duration=4s",
                                  "--leader-elect-renew-deadline=3s",
                                  "--leader-elect-retry-period=1s",
                                  "--metrics-secure",
                                  "--metrics-bind-address",
                                  "127.0.0.1:0",
                                  "--health-probe-bind-address",
                                  "127.0.0.1:0",
                                  "--alertmanager-webhook-bind-address",
                                  "127.0.0.1:0",
                                  "--repair-extended-resource-mapping",
                                  "--delete-leaked-claims",
                                  "--extended-resource-leak-grace-period=1s"};
    auto process = BackgroundProcess::Start(argv);
    ASSERT_TRUE(process.ok()) << process.status().ToString();
    controller_ = std::move(*process);
  }

  bool Logged(const std::string& text) const {
    return controller_->Output().find(text) != std::string::npos;
  }

  // The port= of the first log line naming `serving`; 0 before it is logged.
  int LoggedPort(const std::string& serving) const {
    std::string out = controller_->Output();
    auto line = out.find(serving);
    auto at = line == std::string::npos ? line : out.find("port=", line);
    return at == std::string::npos ? 0 : std::atoi(out.c_str() + at + 5);
  }

  // `request` to the controller's HTTPS `port` (a self-signed certificate);
  // status 0 and the error as body when no answer came.
  static kube::HttpResponse Send(int port, const kube::HttpRequest& request) {
    kube::HttpResponse failed;
    if (port == 0) return failed;
    kube::RestConfig config;
    config.server = "https://127.0.0.1:" + std::to_string(port);
    config.insecure_skip_tls_verify = true;
    config.request_timeout = 10s;
    auto transport = kube::HttpTransport::Create(config);
    if (!transport.ok()) return failed;
    auto reply = (*transport)->Send(request);
    if (!reply.ok()) failed.body = reply.status().ToString();
    return reply.ok() ? *reply : failed;
  }

  // HTTP status of GET /metrics with the scraper's token; 0 on failure.
  int Scrape() {
    kube::HttpRequest request;
    request.path = "/metrics";
    request.headers.emplace_back("Authorization", "Bearer " + scraper_token_);
    return Send(LoggedPort("serving metrics on"), request).status;
  }

  // The sender's firing alert for the fake GPU, with `token`.
  kube::HttpResponse PostAlert(int port, const std::string& token) {
    kube::HttpRequest request;
    request.method = "POST";
    request.path = "/alertmanager";
    request.content_type = "application/json";
    request.body = FiringAlert(alert_uuid_);
    request.headers.emplace_back("Authorization", "Bearer " + token);
    return Send(port, request);
  }

  std::vector<std::string> LogLines() const {
    std::vector<std::string> lines;
    std::string out = controller_->Output();
    for (size_t start = 0, end; start < out.size(); start = end + 1) {
      end = out.find('\n', start);
      if (end == std::string::npos) end = out.size();
      lines.push_back(out.substr(start, end - start));
    }
    return lines;
  }

  // Lines of the controller's log that mention "forbidden" and none of `expected`.
  std::vector<std::string> UnexpectedDenials(const std::vector<std::string>& expected) const {
    std::vector<std::string> unexpected;
    for (const std::string& line : LogLines()) {
      if (line.find("orbidden") == std::string::npos) continue;
      bool known = std::any_of(expected.begin(), expected.end(), [&](const std::string& denial) {
        return line.find(denial) != std::string::npos;
      });
      if (!known) unexpected.push_back(line);
    }
    return unexpected;
  }

  // One controller run with the roles as applied; `run` names the triggers.
  void RunAndJudge(const Expectation& e, const std::string& run) {
    std::string health = "rbac-" + run;
    std::string winner = "rbac-a-" + run + ".example.com";  // newer: wins the contested name
    auto applied = cluster_->Apply(HealthManifest(health));
    ASSERT_TRUE(applied.ok()) << applied.ToString();
    applied = cluster_->Apply(ClassManifest(winner));
    ASSERT_TRUE(applied.ok()) << applied.ToString();
    std::string claim = "rbac-leak-" + run;
    ASSERT_NO_FATAL_FAILURE(CreateLeakedClaim(claim));
    std::string reporter = "rbac-kubelet-" + run;
    ASSERT_NO_FATAL_FAILURE(CreateReportingPod(reporter, reporter));
    ASSERT_NO_FATAL_FAILURE(StartInCluster());
    auto dump = [&] { return controller_->Output(); };
    auto up = WaitFor(
        "leader " + std::to_string(e.leads) + ", synced " + std::to_string(e.syncs), 30s,
        [&] {
          return (!e.leads || Logged("became leader")) && (!e.syncs || Logged("inventory synced"));
        },
        dump);
    ASSERT_TRUE(up.ok()) << up.ToString();
    // Features start as their own informers sync, so "inventory synced" can
    // come before the mapping reconciler has run: the hazard exists only for
    // a reconciler that saw the winner before it left.
    if (e.rule.empty() || e.extended_works) {
      auto seen = WaitFor(
          "the mapping reconciler saw both classes", 30s,
          [&] {
            return Logged(std::string("DuplicateExtendedResourceName on DeviceClass ") +
                          kSurvivorClass);
          },
          dump);
      ASSERT_TRUE(seen.ok()) << seen.ToString();
    }
    // The winner leaves: an order hazard the repair annotates the survivor for.
    ASSERT_TRUE(cluster_->Kubectl({"delete", "deviceclass", winner}).ok());
    if (e.metrics) {
      auto served = WaitFor(
          "/metrics 200", 30s, [&] { return Scrape() == 200; }, dump);
      EXPECT_TRUE(served.ok()) << served.ToString();
    } else {
      EXPECT_NE(Scrape(), 200);
    }
    // The alert first: some denials come only from the webhook's handling of it.
    if (e.webhook != 0) ExpectWebhookAnswer(e);
    for (const auto& denial : e.denials) {
      auto logged = WaitFor(
          "a log line: " + denial, 30s, [&] { return Logged(denial); }, dump);
      EXPECT_TRUE(logged.ok()) << logged.ToString();
    }
    if (e.rule.empty()) ExpectEveryFeatureWorked(health, claim);
    if (e.rule.empty()) ExpectKubeletSourceWorked(reporter);
    if (e.health_works) ExpectHealthWorked(health);
    if (e.extended_works) ExpectExtendedWorked(claim);
    if (!e.waiting.empty()) {
      auto named = WaitFor(
          "a log line: " + e.waiting, 30s, [&] { return Logged(e.waiting); }, dump);
      EXPECT_TRUE(named.ok()) << named.ToString();
    }
    std::vector<std::string> denials = e.denials;
    if (e.rule.empty()) denials.push_back(StrangerRefused());
    EXPECT_EQ(UnexpectedDenials(denials), std::vector<std::string>()) << e.feature;
    if (e.leads) {
      EXPECT_FALSE(Logged("lost lease")) << dump();
    }
    PrintFirstDenial(e);
    controller_->Signal(SIGTERM);
    EXPECT_TRUE(controller_->Wait(20s).has_value());
    controller_.reset();
    (void)cluster_->Kubectl({"delete", "devicehealth", health});
    (void)cluster_->Kubectl(
        {"delete", "devicetaintrule", "devicehealth-" + health, "--ignore-not-found"});
    ForgetClaim(claim);
    (void)cluster_->Kubectl({"delete", "pod", reporter, "-n", "default", "--force",
                             "--grace-period=0", "--ignore-not-found"});
    (void)cluster_->Kubectl({"delete", "devicehealth", "-l", kKubeletSource, "--ignore-not-found"});
    ForgetAlertHealths();
  }

  // The webhook, served once its informers sync, answers the sender's alert
  // with `e.webhook`: 200 having written the GPU's DeviceHealth, or 503 having
  // logged the apiserver's denial. The full run also proves the sender's
  // RBAC: the same alert with a token outside the binding gets 403.
  void ExpectWebhookAnswer(const Expectation& e) {
    auto dump = [&] { return controller_->Output(); };
    int port = 0;
    auto served = WaitFor(
        "the Alertmanager webhook's port", 30s,
        [&] { return (port = LoggedPort(kWebhookServing)) != 0; }, dump);
    ASSERT_TRUE(served.ok()) << served.ToString();
    if (e.rule.empty()) {
      auto refused = PostAlert(port, stranger_token_);
      EXPECT_EQ(refused.status, 403) << refused.body;
    }
    auto answer = PostAlert(port, sender_token_);
    EXPECT_EQ(answer.status, e.webhook) << answer.body;
    if (e.webhook == 200) {
      ExpectAlertHealthWritten();
    } else {
      ExpectWebhookDenialLogged(e);
    }
  }

  // A DeviceHealth labelled with the webhook's source targets the GPU's UUID.
  void ExpectAlertHealthWritten() {
    ExpectSourcedHealth(kAlertSource, "/spec/uuid"_json_pointer, alert_uuid_,
                        "an alertmanager DeviceHealth for " + alert_uuid_, 10s);
  }

  // The webhook's own log line carries the apiserver's denial.
  void ExpectWebhookDenialLogged(const Expectation& e) {
    auto by_webhook = [&] {
      for (const std::string& line : LogLines()) {
        if (line.find("Alertmanager webhook: ") == std::string::npos) continue;
        for (const auto& denial : e.denials) {
          if (line.find(denial) != std::string::npos) return true;
        }
      }
      return false;
    };
    auto logged = WaitFor("the webhook's log line with the denial", 10s, by_webhook,
                          [&] { return controller_->Output(); });
    EXPECT_TRUE(logged.ok()) << logged.ToString();
  }

  // The webhook's DeviceHealths and the DeviceTaintRules made for them
  // (labelled with their owner), so no later run sees a rule without owner.
  void ForgetAlertHealths() {
    auto names = cluster_->Kubectl(
        {"get", "devicehealths", "-l", kAlertSource, "-o", "jsonpath={.items[*].metadata.name}"});
    std::istringstream words(names.ok() ? names->out : "");
    for (std::string name; words >> name;) {
      (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                               std::string(kRuleOwner) + "=" + name, "--ignore-not-found"});
    }
    (void)cluster_->Kubectl({"delete", "devicehealth", "-l", kAlertSource, "--ignore-not-found"});
  }

  // With every rule: what ExpectHealthWorked and ExpectExtendedWorked check,
  // and the Event on the DeviceHealth.
  void ExpectEveryFeatureWorked(const std::string& health, const std::string& claim) {
    ExpectHealthWorked(health);
    ExpectExtendedWorked(claim);
    auto event = WaitFor("an Event on " + health, 30s, [&] {
      auto events = cluster_->Kubectl({"get", "events", "-A", "--field-selector",
                                       "involvedObject.name=" + health, "-o", "name"});
      return events.ok() && !events->out.empty();
    });
    EXPECT_TRUE(event.ok()) << event.ToString();
  }

  // Device health acted: the DeviceHealth's DeviceTaintRule exists and its
  // status names it.
  void ExpectHealthWorked(const std::string& health) {
    auto dump = [&] { return controller_->Output(); };
    auto status = WaitFor(
        "DeviceHealth " + health + " status.ruleName", 30s,
        [&] {
          auto got = cluster_->GetJson({"get", "devicehealth", health});
          return got.ok() && got->value("status", json::object()).value("ruleName", "") != "";
        },
        dump);
    EXPECT_TRUE(status.ok()) << status.ToString();
    auto rule = cluster_->Kubectl(
        {"get", "devicetaintrule", "devicehealth-" + health, "--ignore-not-found", "-o", "name"});
    EXPECT_TRUE(rule.ok() && !rule->out.empty()) << "no DeviceTaintRule devicehealth-" << health;
  }

  // The extended-resource features acted: the repair annotated the surviving
  // DeviceClass and the leak audit removed the leaked claim.
  void ExpectExtendedWorked(const std::string& claim) {
    auto dump = [&] { return controller_->Output(); };
    auto repaired = WaitFor(
        "the repair", 30s,
        [&] { return Logged(std::string("annotated DeviceClass ") + kSurvivorClass); }, dump);
    EXPECT_TRUE(repaired.ok()) << repaired.ToString();
    auto removed = WaitFor(
        "leaked claim " + claim + " removed", 30s,
        [&] {
          auto got = cluster_->Kubectl(
              {"get", "resourceclaim", claim, "-n", "default", "--ignore-not-found", "-o", "name"});
          return got.ok() && got->out.empty();
        },
        dump);
    EXPECT_TRUE(removed.ok()) << removed.ToString();
  }

  // The evidence for docs/deploy.md's RBAC table: the first denial logged, shortened,
  // and the webhook's lines.
  void PrintFirstDenial(const Expectation& e) const {
    std::string out = controller_->Output();
    std::string first = "(none)";
    if (!e.denials.empty()) {
      auto at = out.find(e.denials[0]);
      auto start = out.rfind('\n', at);
      start = start == std::string::npos ? 0 : start + 1;
      first = out.substr(start, out.find('\n', at) - start);
    }
    std::cout << "[rule] " << (e.rule.empty() ? "(all rules)" : e.rule)
              << "\n  feature: " << e.feature << "\n  leader "
              << (Logged("became leader") ? "elected" : "NOT elected") << ", inventory "
              << (Logged("inventory synced") ? "synced" : "NOT synced") << "\n  log: " << first
              << "\n";
    if (!e.waiting.empty()) {
      auto at = out.find(e.waiting);
      auto start = at == std::string::npos ? at : out.rfind('\n', at);
      if (at != std::string::npos) {
        start = start == std::string::npos ? 0 : start + 1;
        std::cout << "  held back: " << out.substr(start, out.find('\n', at) - start) << "\n";
      }
    }
    if (e.webhook == 0) return;
    for (const std::string& line : LogLines()) {
      if (line.find("Alertmanager webhook: ") != std::string::npos ||
          line.find("from Alertmanager") != std::string::npos) {
        std::cout << "  webhook: " << line << "\n";
      }
    }
  }

  std::unique_ptr<KustomizeOverlay> install_;
  std::vector<json> all_roles_;
  std::vector<json> roles_;
  std::unique_ptr<TempDir> dir_;
  std::string sa_dir_;
  std::string host_;
  std::string port_;
  std::string scraper_token_;
  std::string sender_token_;
  std::string stranger_token_;
  std::string alert_uuid_;
  bool fleet_applied_ = false;
  bool senders_bound_ = false;
  std::unique_ptr<BackgroundProcess> controller_;
  bool applied_ = false;
  std::string cluster_dir_;
  bool kcm_stopped_ = false;
  std::string leak_owner_uid_;
  std::string last_removed_;  // the rule ApplyRolesWithout left out last
};

// One test (setup, a stopped kube-controller-manager and cleanup are costly):
// no role of the install has wildcards or Secrets; then the runs.
TEST_F(RbacPerRuleTest, EachRuleIsNeededByExactlyTheFeatureThatFailsWithoutIt) {
  auto started = std::chrono::steady_clock::now();
  for (const json& role : all_roles_) {
    for (const auto& rule : role["rules"]) {
      for (const char* field : {"verbs", "resources", "apiGroups"}) {
        for (const auto& value : rule.value(field, json::array())) {
          EXPECT_NE(value, "*") << field << " of " << rule;
        }
      }
      for (const auto& resource : rule.value("resources", json::array())) {
        EXPECT_NE(resource, "secrets") << rule;
      }
    }
  }

  // Every rule of the controller's roles has an expectation and every
  // expectation a rule; a rule in two roles would survive removal from one.
  std::vector<std::string> keys;
  for (const json& role : roles_) {
    for (const auto& rule : role["rules"]) {
      EXPECT_EQ(std::count(keys.begin(), keys.end(), RuleKey(rule)), 0) << "twice: " << rule;
      keys.push_back(RuleKey(rule));
    }
  }
  for (const auto& e : Expectations()) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), e.rule), keys.end()) << e.rule;
  }
  for (const auto& key : keys) {
    bool known = std::any_of(Expectations().begin(), Expectations().end(),
                             [&](const Expectation& e) { return e.rule == key; });
    EXPECT_TRUE(known) << "rule without an expectation: " << key;
  }
  ASSERT_NO_FATAL_FAILURE(StopKcmAndCreateLeakOwner());
  ASSERT_NO_FATAL_FAILURE(
      RunAndJudge({.rule = "", .feature = "all features", .denials = {}, .webhook = 200}, "all"));
  int run = 0;
  for (const auto& e : Expectations()) {
    SCOPED_TRACE(e.rule);
    ASSERT_NO_FATAL_FAILURE(ApplyRolesWithout(e.rule));
    ASSERT_NO_FATAL_FAILURE(RunAndJudge(e, std::to_string(run++)));
  }
  ASSERT_NO_FATAL_FAILURE(ApplyRolesWithout(""));
  auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
  std::cout << "per-rule RBAC: " << run << " rules + 1 full run in " << seconds.count() << " s\n";
}

}  // namespace
}  // namespace dra::testing
