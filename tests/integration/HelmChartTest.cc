// The Helm chart (manifests/helm/dra-controller) and the kustomize install are
// one install: `helm template` with default values renders the objects of
// `kubectl kustomize manifests/` (with monitoring on, those of
// manifests/monitoring as well), compared object by object after parsing,
// Helm's own labels aside. `helm lint --strict` passes; values change what
// they name and nothing else; and a real `helm install` into the test control
// plane creates the objects, `helm upgrade` changes them and `helm uninstall`
// removes them (all but the CRD and the Namespace, kept on purpose). helm is built from its Go
// module by hack/helm/build.sh (DRA_HELM, exported by the cluster's env file).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "controller/translate/YamlJson.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/KustomizeOverlay.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kRelease = "dra-controller";
constexpr const char* kNamespace = "dra-system";
// The install test's own namespace, so it never meets the kustomize tests' objects.
constexpr const char* kInstallNamespace = "dra-helm-test";
// Where the alerts' runbook_url point unless told otherwise: the repository's docs/.
constexpr const char* kDefaultRunbookBase =
    "https://github.com/dra-controller/dra-controller/blob/main/docs";
constexpr const char* kDigest =
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// kind + " " + namespace/name -> the object, normalized.
using Objects = std::map<std::string, json>;

std::string Repo(const std::string& path) { return std::string(DRA_REPO_ROOT) + "/" + path; }
std::string Chart() { return Repo("manifests/helm/dra-controller"); }

bool ClusterScoped(const std::string& kind) {
  static const std::set<std::string> kinds{
      "Namespace",          "CustomResourceDefinition",  "ClusterRole",
      "ClusterRoleBinding", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"};
  return kinds.count(kind) > 0;
}

// What the two renderings may differ in without installing anything different:
// Helm's labels and its resource-policy annotation (on the Namespace), and the
// CRD's labels (kustomize's `labels:` adds them, Helm installs crds/
// verbatim). Namespaces are compared as rendered: an object without one
// lands wherever the applying user's context points.
void Normalize(json& object) {
  json& meta = object["metadata"];
  // kustomize's namespace reaches kinds it does not know to be cluster-scoped
  // (ValidatingAdmissionPolicy); the API server drops it from such objects.
  if (ClusterScoped(object.value("kind", ""))) meta.erase("namespace");
  if (meta.contains("annotations")) {
    meta["annotations"].erase("helm.sh/resource-policy");
    if (meta["annotations"].empty()) meta.erase("annotations");
  }
  if (meta.contains("labels")) {
    for (const char* label : {"app.kubernetes.io/instance", "app.kubernetes.io/managed-by",
                              "app.kubernetes.io/version", "helm.sh/chart"}) {
      meta["labels"].erase(label);
    }
    if (meta["labels"].empty() || object.value("kind", "") == "CustomResourceDefinition") {
      meta.erase("labels");
    }
  }
}

std::string Key(const json& object) {
  const json& meta = object["metadata"];
  return object.value("kind", "") + " " + meta.value("namespace", "") + "/" +
         meta.value("name", "");
}

// Parses a multi-document YAML stream the way the API server reads it.
kube::Result<Objects> Parse(const std::string& stream) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(stream);
  } catch (const YAML::Exception& e) {
    return kube::Status(kube::StatusCode::kParseError, std::string("invalid YAML: ") + e.what());
  }
  Objects objects;
  for (const YAML::Node& doc : docs) {
    if (!doc.IsMap()) continue;
    json object = translate::YamlJson::ToJson(doc);
    Normalize(object);
    std::string key = Key(object);
    if (!objects.emplace(key, object).second) {
      return kube::Status(kube::StatusCode::kParseError, "rendered twice: " + key);
    }
  }
  return objects;
}

// One line per object only one side has, and a JSON patch (kustomize ->
// chart) per object both have but differently; empty when they agree.
std::string Diff(const Objects& kustomize, const Objects& chart) {
  std::string out;
  for (const auto& [key, object] : kustomize) {
    auto it = chart.find(key);
    if (it == chart.end()) {
      out += "only in kustomize: " + key + "\n";
    } else if (it->second != object) {
      out += "differs: " + key + " (JSON patch kustomize -> chart):\n" +
             json::diff(object, it->second).dump(2) + "\n";
    }
  }
  for (const auto& [key, object] : chart) {
    if (!kustomize.count(key)) out += "only in the chart: " + key + "\n";
  }
  return out;
}

// The object under `key`, or an empty object.
const json& At(const Objects& objects, const std::string& key) {
  static const json kMissing = json::object();
  auto it = objects.find(key);
  return it == objects.end() ? kMissing : it->second;
}

// Every rule of a ClusterRole or Role in `objects` that lets its holder
// write DeviceTaintRules or ResourceClaims (a subresource included), as
// "Kind name: verbs on resources".
std::string TaintRuleOrClaimWrites(const Objects& objects) {
  static const std::set<std::string> writes{"create", "update",           "patch",
                                            "delete", "deletecollection", "*"};
  std::string out;
  for (const auto& [key, object] : objects) {
    std::string kind = object.value("kind", "");
    if (kind != "ClusterRole" && kind != "Role") continue;
    for (const json& rule : object.value("rules", json::array())) {
      json groups = rule.value("apiGroups", json::array());
      bool dra = std::any_of(groups.begin(), groups.end(),
                             [](const json& g) { return g == "resource.k8s.io" || g == "*"; });
      bool writing = false;
      for (const json& verb : rule.value("verbs", json::array())) writing |= writes.count(verb) > 0;
      bool target = false;
      for (const json& resource : rule.value("resources", json::array())) {
        std::string name = resource.get<std::string>();
        name = name.substr(0, name.find('/'));
        target |= name == "devicetaintrules" || name == "resourceclaims" || name == "*";
      }
      if (dra && writing && target) out += key + ": " + rule.dump() + "\n";
    }
  }
  return out;
}

// Where the monitoring objects must land and what they must name to be found
// by Prometheus and to verify the controller.
struct MonitoringExpectation {
  std::string ns = kNamespace;
  std::map<std::string, std::string> selector_labels = {};  // on the ServiceMonitor and rules
  std::string alertmanager_namespace = "monitoring";
  std::string alertmanager_account = "alertmanager-main";
  std::string ca_secret = "dra-controller-tls";
  std::string runbook_base = kDefaultRunbookBase;
};

// Every namespaced object in `ns`, and every ServiceAccount subject of ours as well.
std::string NamespaceProblems(const Objects& objects, const std::string& ns) {
  std::string out;
  for (const auto& [key, object] : objects) {
    if (ClusterScoped(object.value("kind", ""))) continue;
    std::string got = object["metadata"].value("namespace", "");
    if (got != ns) out += key + ": namespace \"" + got + "\", want \"" + ns + "\"\n";
  }
  for (const auto& [key, object] : objects) {
    for (const json& subject : object.value("subjects", json::array())) {
      bool ours = subject.value("name", "").rfind("dra-controller", 0) == 0;
      if (ours && subject.value("namespace", "") != ns) {
        out += key + ": subject " + subject.dump() + " outside " + ns + "\n";
      }
    }
  }
  return out;
}

std::string SelectorLabelProblems(const Objects& objects, const MonitoringExpectation& want) {
  std::string out;
  const std::string in = " " + want.ns + "/";
  for (const std::string& key :
       {"ServiceMonitor" + in + "dra-controller", "PrometheusRule" + in + "dra-controller",
        "PrometheusRule" + in + "dra-controller-dcgm",
        "ConfigMap" + in + "dra-controller-dashboard"}) {
    const json& object = At(objects, key);
    if (object.empty()) {
      out += "missing: " + key + "\n";
      continue;
    }
    if (key.rfind("ConfigMap", 0) == 0) continue;  // Grafana's sidecar label, not Prometheus's
    json labels = object["metadata"].value("labels", json::object());
    for (const auto& [name, value] : want.selector_labels) {
      if (labels.value(name, "") != value) out += key + ": no label " + name + "=" + value + "\n";
    }
  }
  return out;
}

std::string AlertmanagerBindingProblems(const Objects& objects, const MonitoringExpectation& want) {
  json subjects =
      At(objects, "ClusterRoleBinding /dra-controller-alert-sender").value("subjects", json());
  json expected = json::array({{{"kind", "ServiceAccount"},
                                {"name", want.alertmanager_account},
                                {"namespace", want.alertmanager_namespace}}});
  if (subjects == expected) return "";
  return "alert sender binding subjects " + subjects.dump() + ", want " + expected.dump() + "\n";
}

// The scrape verifies the controller's certificate against the CA Secret and
// the Service's DNS name, and sends a token from a Secret of a ServiceAccount
// that may read /metrics (no file paths, no insecureSkipVerify).
std::string ScrapeProblems(const Objects& objects, const MonitoringExpectation& want) {
  std::string out;
  const std::string in = " " + want.ns + "/";
  const json& monitor = At(objects, "ServiceMonitor" + in + "dra-controller");
  json endpoint = monitor.value("/spec/endpoints/0"_json_pointer, json::object());
  if (endpoint.contains("bearerTokenFile")) out += "scrape uses the deprecated bearerTokenFile\n";
  json tls = endpoint.value("tlsConfig", json::object());
  if (tls.value("insecureSkipVerify", false)) out += "scrape skips certificate verification\n";
  json ca = tls.value("/ca/secret"_json_pointer, json::object());
  if (ca != json{{"name", want.ca_secret}, {"key", "ca.crt"}})
    out += "scrape CA " + ca.dump() + "\n";
  std::string server = "dra-controller." + want.ns + ".svc";
  if (tls.value("serverName", "") != server) out += "scrape serverName not " + server + "\n";
  json auth = endpoint.value("authorization", json::object());
  std::string token_secret = auth.value("/credentials/name"_json_pointer, std::string());
  if (auth.value("/credentials/key"_json_pointer, std::string()) != "token") {
    out += "scrape authorization " + auth.dump() + " names no token Secret\n";
  }
  const json& secret = At(objects, "Secret" + in + token_secret);
  std::string account = secret.value(
      "/metadata/annotations/kubernetes.io~1service-account.name"_json_pointer, std::string());
  if (secret.value("type", "") != "kubernetes.io/service-account-token" || account.empty() ||
      At(objects, "ServiceAccount" + in + account).empty()) {
    out += "token Secret " + token_secret + " is no rendered ServiceAccount's token\n";
  }
  bool may_read = false;
  for (const auto& [key, object] : objects) {
    if (object.value("kind", "") != "ClusterRoleBinding") continue;
    bool reader = object.value("/roleRef/name"_json_pointer, std::string()) ==
                  "dra-controller-metrics-reader";
    json subject = {{"kind", "ServiceAccount"}, {"name", account}, {"namespace", want.ns}};
    json subjects = object.value("subjects", json::array());
    may_read |= reader && std::find(subjects.begin(), subjects.end(), subject) != subjects.end();
  }
  if (!may_read) out += "scraper " + account + " is not bound to dra-controller-metrics-reader\n";
  return out;
}

// Every alert links an absolute runbook under the expected base.
std::string RunbookProblems(const Objects& objects, const MonitoringExpectation& want) {
  std::string out;
  int alerts = 0;
  for (const auto& [key, object] : objects) {
    if (object.value("kind", "") != "PrometheusRule") continue;
    for (const json& group : object.value("/spec/groups"_json_pointer, json::array())) {
      for (const json& rule : group.value("rules", json::array())) {
        if (!rule.contains("alert")) continue;
        ++alerts;
        json annotations = rule.value("annotations", json::object());
        std::string url = annotations.value("runbook_url", "");
        if (url.rfind(want.runbook_base + "/", 0) != 0 || annotations.contains("runbook")) {
          out += rule["alert"].get<std::string>() + ": runbook_url \"" + url + "\"\n";
        }
      }
    }
  }
  if (alerts == 0) out += "no alert rules rendered\n";
  return out;
}

std::string MonitoringProblems(const Objects& objects, const MonitoringExpectation& want) {
  return NamespaceProblems(objects, want.ns) + SelectorLabelProblems(objects, want) +
         AlertmanagerBindingProblems(objects, want) + ScrapeProblems(objects, want) +
         RunbookProblems(objects, want);
}

class HelmChartTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    const char* helm = std::getenv("DRA_HELM");
    if (helm == nullptr || !std::filesystem::exists(helm)) {
      std::string why =
          "DRA_HELM names no helm binary: hack/helm/build.sh builds it and the cluster's env "
          "file exports it";
      if (std::getenv("DRA_REQUIRE_CLUSTER") != nullptr) FAIL() << why;
      GTEST_SKIP() << why;
    }
    helm_ = helm;
  }

  void TearDown() override {
    if (!cluster_ || !touched_) return;
    if (installed_) {
      (void)Helm({"uninstall", kRelease, "-n", kInstallNamespace, "--wait", "--timeout=90s"});
    }
    (void)cluster_->Kubectl({"delete", "namespace", kInstallNamespace, "--ignore-not-found",
                             "--wait=true", "--timeout=90s"});
    // The rest of the suite applies the CRD with kubectl; one Helm created
    // lacks kubectl's last-applied annotation, and their apply would warn.
    if (helm_made_crd_) {
      (void)cluster_->Kubectl({"apply", "-f", Repo("crds/devicehealths.dra-controller.dev.yaml")});
    }
  }

  bool CrdExists() {
    auto got = cluster_->Kubectl(
        {"get", "crd", "devicehealths.dra-controller.dev", "--ignore-not-found", "-o", "name"});
    return got.ok() && !got->out.empty();
  }

  // helm ARGS with its caches and configuration in a temporary directory; a
  // non-zero exit becomes an error carrying its stderr.
  kube::Result<ProcessOutput> Helm(const std::vector<std::string>& args) {
    std::string home = home_.path().string();
    std::vector<std::string> argv{"env", "HELM_CACHE_HOME=" + home + "/cache",
                                  "HELM_CONFIG_HOME=" + home + "/config",
                                  "HELM_DATA_HOME=" + home + "/data", helm_};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = Subprocess::Run(argv, "", 180s);
    if (!result.ok()) return result.status();
    if (result->exit_code != 0) {
      std::string cmd = "helm";
      for (const auto& a : args) cmd += " " + a;
      return kube::Status(
          kube::StatusCode::kInternal,
          cmd + " exited " + std::to_string(result->exit_code) + ": " + result->err + result->out);
    }
    return result;
  }

  // `helm template` of the chart as release dra-controller in dra-system.
  kube::Result<Objects> Template(const std::vector<std::string>& sets = {}) {
    return TemplateIn(kNamespace, sets);
  }

  kube::Result<Objects> TemplateIn(const std::string& ns, const std::vector<std::string>& sets) {
    std::vector<std::string> args{"template",    kRelease, Chart(),
                                  "--namespace", ns,       "--include-crds"};
    for (const auto& set : sets) args.insert(args.end(), {"--set", set});
    auto rendered = Helm(args);
    if (!rendered.ok()) return rendered.status();
    return Parse(rendered->out);
  }

  kube::Result<Objects> Kustomize(const std::string& dir) {
    auto rendered = cluster_->Kubectl({"kustomize", Repo(dir)});
    if (!rendered.ok()) return rendered.status();
    return Parse(rendered->out);
  }

  // The kustomize install: the CRD's own kustomization, then manifests/.
  kube::Result<Objects> KustomizeInstall() {
    auto crds = Kustomize("crds");
    if (!crds.ok()) return crds.status();
    auto manifests = Kustomize("manifests");
    if (!manifests.ok()) return manifests.status();
    manifests->insert(crds->begin(), crds->end());
    return manifests;
  }

  // `kubectl kustomize` of an overlay: the install (manifests/) with `components`.
  kube::Result<Objects> KustomizeWith(const std::vector<std::string>& components) {
    return KustomizeOf({"manifests"}, components);
  }

  // `kubectl kustomize` of an overlay of `resources` with `components`, and crds/.
  kube::Result<Objects> KustomizeOf(const std::vector<std::string>& resources,
                                    const std::vector<std::string>& components) {
    KustomizeOverlay overlay(resources, components);
    auto rendered = cluster_->Kubectl({"kustomize", overlay.path()});
    if (!rendered.ok()) return rendered.status();
    auto objects = Parse(rendered->out);
    if (!objects.ok()) return objects.status();
    auto crds = Kustomize("crds");
    if (!crds.ok()) return crds.status();
    objects->insert(crds->begin(), crds->end());
    return objects;
  }

  // The chart's Deployment container, rendered with `sets`.
  json Container(const std::vector<std::string>& sets) {
    auto objects = Template(sets);
    EXPECT_TRUE(objects.ok()) << objects.status().ToString();
    if (!objects.ok()) return json::object();
    return (*objects)[std::string("Deployment ") + kNamespace + "/dra-controller"]["spec"]
                     ["template"]["spec"]["containers"][0];
  }

  std::string helm_;
  TempDir home_;
  bool touched_ = false;    // the install namespace may exist
  bool installed_ = false;  // the release may exist
  bool helm_made_crd_ = false;
};

TEST_F(HelmChartTest, LintsCleanWithEveryOptionalPart) {
  for (const std::vector<std::string>& sets :
       {std::vector<std::string>{},
        {"--set", "monitoring.enabled=true", "--set", "alertmanagerReceiver.enabled=false"},
        {"--set", std::string("image.digest=") + kDigest, "--set", "namespace.create=false"},
        {"--set", "tls.certManager.enabled=true"},
        {"--set", "features.deviceHealth=false", "--set", "features.deleteLeakedClaims=true",
         "--set", "features.repairExtendedResourceMapping=true"}}) {
    std::vector<std::string> args{"lint", "--strict", Chart()};
    args.insert(args.end(), sets.begin(), sets.end());
    auto lint = Helm(args);
    ASSERT_TRUE(lint.ok()) << lint.status().ToString();
    EXPECT_NE(lint->out.find("0 chart(s) failed"), std::string::npos) << lint->out;
  }
}

TEST_F(HelmChartTest, DefaultValuesRenderTheKustomizeInstall) {
  auto kustomize = KustomizeInstall();
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  auto chart = Template();
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(Diff(*kustomize, *chart), "");
  EXPECT_GE(kustomize->size(), 11u);  // the install is there to compare, not an empty stream
}

TEST_F(HelmChartTest, MonitoringRendersTheMonitoringComponent) {
  auto kustomize = KustomizeInstall();
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  auto component = Kustomize("manifests/monitoring");
  ASSERT_TRUE(component.ok()) << component.status().ToString();
  // ServiceMonitor, two PrometheusRules, the alert sender's ClusterRole and binding, dashboard,
  // the scraper's ServiceAccount, token Secret and binding
  EXPECT_EQ(component->size(), 9u);
  kustomize->insert(component->begin(), component->end());
  auto chart = Template({"monitoring.enabled=true"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(Diff(*kustomize, *chart), "");
}

// The component as README's overlay uses it (no namespace of its own): every
// object in dra-system, Alertmanager's binding for kube-prometheus, the scrape
// verified, runbooks under the repository's docs.
TEST_F(HelmChartTest, MonitoringComponentLandsInTheControllerNamespace) {
  auto install = KustomizeInstall();
  ASSERT_TRUE(install.ok()) << install.status().ToString();
  auto component = Kustomize("manifests/monitoring");
  ASSERT_TRUE(component.ok()) << component.status().ToString();
  install->insert(component->begin(), component->end());
  EXPECT_EQ(MonitoringProblems(*install, MonitoringExpectation{}), "");
}

// The documented overlay for another namespace and kube-prometheus-stack.
TEST_F(HelmChartTest, MonitoringOverlayMovesEverythingToItsNamespaceWithItsLabels) {
  auto overlay = Kustomize("manifests/examples/monitoring-overlay");
  ASSERT_TRUE(overlay.ok()) << overlay.status().ToString();
  EXPECT_EQ(
      MonitoringProblems(*overlay, {.ns = "gpu-ops",
                                    .selector_labels = {{"release", "kube-prometheus-stack"}},
                                    .alertmanager_namespace = "monitoring",
                                    .alertmanager_account = "kube-prometheus-stack-alertmanager"}),
      "");
  EXPECT_FALSE(At(*overlay, "Deployment gpu-ops/dra-controller").empty());
}

TEST_F(HelmChartTest, MonitoringLandsInTheReleaseNamespaceWithTheValuesLabels) {
  auto chart =
      TemplateIn("gpu-ops", {"monitoring.enabled=true", "monitoring.labels.release=kps",
                             "monitoring.alertmanager.namespace=observability",
                             "monitoring.alertmanager.serviceAccount=kps-alertmanager",
                             "monitoring.caSecret.name=gpu-ops-ca", "namespace.create=false",
                             "monitoring.runbookBaseURL=https://runbooks.example.com/dra"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(MonitoringProblems(*chart, {.ns = "gpu-ops",
                                        .selector_labels = {{"release", "kps"}},
                                        .alertmanager_namespace = "observability",
                                        .alertmanager_account = "kps-alertmanager",
                                        .ca_secret = "gpu-ops-ca",
                                        .runbook_base = "https://runbooks.example.com/dra"}),
            "");
}

// The scrape verifies against the CA of the certificate the controller serves.
TEST_F(HelmChartTest, TheScrapeTrustsTheServingCertificatesSecret) {
  auto chart = Template({"monitoring.enabled=true", "tls.secretName=corp-serving"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(MonitoringProblems(*chart, {.ca_secret = "corp-serving"}), "");
}

// The DCGM rules read the exporter's series where the values say it runs.
TEST_F(HelmChartTest, DcgmRulesSelectTheExporterTheValuesName) {
  auto chart =
      Template({"monitoring.enabled=true",
                R"(monitoring.dcgmExporterSelector=job="dcgm-exporter"\,namespace="monitoring")"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  std::string rules =
      (*chart)[std::string("PrometheusRule ") + kNamespace + "/dra-controller-dcgm"].dump();
  EXPECT_NE(
      rules.find(R"(DCGM_FI_DEV_XID_ERRORS{job=\"dcgm-exporter\",namespace=\"monitoring\"} == 79)"),
      std::string::npos)
      << rules;
  EXPECT_EQ(rules.find("gpu-operator"), std::string::npos) << rules;
}

// Issue 48's "done when": with device health off and neither the mapping
// repair nor the leak deletion on, nothing the install renders may write a
// DeviceTaintRule or a ResourceClaim, in kustomize (manifests/base with the
// no-device-health component) and in the chart (features.deviceHealth=false).
TEST_F(HelmChartTest, HealthAndExtendedResourcesOffGrantNoTaintRuleOrClaimWrites) {
  auto kustomize = KustomizeOf({"manifests/base"}, {"manifests/features/no-device-health"});
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  EXPECT_EQ(TaintRuleOrClaimWrites(*kustomize), "");
  auto chart = Template({"features.deviceHealth=false"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(TaintRuleOrClaimWrites(*chart), "");
  // The check can fail: the full install writes both.
  auto full = KustomizeOf({"manifests"}, {"manifests/features/delete-leaked-claims"});
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  std::string writes = TaintRuleOrClaimWrites(*full);
  EXPECT_NE(writes.find("devicetaintrules"), std::string::npos) << writes;
  EXPECT_NE(writes.find("resourceclaims"), std::string::npos) << writes;
}

// Each opt-in feature's component (its flag and its rights) is the chart
// with that feature's value, and health off is base with no-device-health.
TEST_F(HelmChartTest, FeatureValuesRenderTheFeatureComponents) {
  struct Case {
    std::vector<std::string> resources;
    std::string component;
    std::string value;
    std::string role;  // the ClusterRole the component adds; "" none
  };
  for (const Case& c : {Case{{"manifests"},
                             "manifests/features/repair-extended-resource-mapping",
                             "features.repairExtendedResourceMapping=true",
                             "dra-controller-repair-extended-resource-mapping"},
                        Case{{"manifests"},
                             "manifests/features/delete-leaked-claims",
                             "features.deleteLeakedClaims=true",
                             "dra-controller-delete-leaked-claims"},
                        Case{{"manifests/base"},
                             "manifests/features/no-device-health",
                             "features.deviceHealth=false",
                             ""}}) {
    SCOPED_TRACE(c.component);
    auto kustomize = KustomizeOf(c.resources, {c.component});
    ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
    auto chart = Template({c.value});
    ASSERT_TRUE(chart.ok()) << chart.status().ToString();
    EXPECT_EQ(Diff(*kustomize, *chart), "");
    if (!c.role.empty()) {
      EXPECT_FALSE(At(*chart, "ClusterRole /" + c.role).empty()) << c.role;
    }
  }
}

// Device health off: the flag that turns it off, and none of its objects.
TEST_F(HelmChartTest, DeviceHealthOffRendersNoHealthRightsNoPolicyNoRoles) {
  auto chart = Template({"features.deviceHealth=false"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  json args = (*chart)[std::string("Deployment ") + kNamespace + "/dra-controller"]["spec"]
                      ["template"]["spec"]["containers"][0]["args"];
  EXPECT_NE(std::find(args.begin(), args.end(), "--controllers=*,-device-health"), args.end())
      << args;
  for (const char* key :
       {"ClusterRole /dra-controller-device-health",
        "ClusterRoleBinding /dra-controller-device-health",
        "ClusterRole /dra-controller-devicehealth-editor",
        "ClusterRole /dra-controller-devicehealth-viewer",
        "ValidatingAdmissionPolicy /dra-controller-devicehealth-sources",
        "ValidatingAdmissionPolicyBinding /dra-controller-devicehealth-sources"}) {
    EXPECT_TRUE(At(*chart, key).empty()) << key;
  }
  for (const auto& [key, object] : *chart) {  // the CRD stays: its objects outlive the feature
    if (object.value("kind", "") == "CustomResourceDefinition") continue;
    EXPECT_EQ(object.dump().find("devicehealths"), std::string::npos) << key;
  }
}

// TokenReviews and SubjectAccessReviews only for what asks for them: secure
// metrics, or the webhook (which runs with device health).
TEST_F(HelmChartTest, ReviewRightsOnlyForSecureMetricsOrTheWebhook) {
  const std::string role = "ClusterRole /dra-controller-reviews";
  struct Case {
    std::vector<std::string> sets;
    bool want;
  };
  for (const Case& c : {Case{{}, true}, Case{{"metrics.secure=false"}, true},
                        Case{{"metrics.secure=false", "alertmanagerReceiver.enabled=false"}, false},
                        Case{{"metrics.secure=false", "features.deviceHealth=false"}, false}}) {
    auto chart = Template(c.sets);
    ASSERT_TRUE(chart.ok()) << chart.status().ToString();
    EXPECT_EQ(!At(*chart, role).empty(), c.want) << ::testing::PrintToString(c.sets);
    EXPECT_EQ(!At(*chart, "ClusterRoleBinding /dra-controller-reviews").empty(), c.want);
  }
}

// The people's roles: the viewer joins `view`, the editor joins nothing and
// cannot act as a monitoring source.
TEST_F(HelmChartTest, DeviceHealthRolesForPeople) {
  auto kustomize = KustomizeInstall();
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  const json& viewer = At(*kustomize, "ClusterRole /dra-controller-devicehealth-viewer");
  EXPECT_EQ(viewer["metadata"]["labels"].value("rbac.authorization.k8s.io/aggregate-to-view", ""),
            "true");
  EXPECT_EQ(viewer["rules"][0]["verbs"], json({"get", "list", "watch"}));
  const json& editor = At(*kustomize, "ClusterRole /dra-controller-devicehealth-editor");
  ASSERT_FALSE(editor.empty());
  for (const auto& [label, value] : editor["metadata"]["labels"].items()) {
    EXPECT_EQ(label.find("rbac.authorization.k8s.io/aggregate-to"), std::string::npos) << label;
  }
  EXPECT_EQ(editor["rules"],
            json::parse(R"([{"apiGroups":["dra-controller.dev"],"resources":["devicehealths"],
              "verbs":["get","list","watch","create","patch","update","delete"]}])"));
}

TEST_F(HelmChartTest, TheComparisonSeesAChangedValue) {
  auto kustomize = KustomizeInstall();
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  auto chart = Template({"replicas=3", "podDisruptionBudget.enabled=false"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  std::string diff = Diff(*kustomize, *chart);
  EXPECT_NE(diff.find("differs: Deployment dra-system/dra-controller"), std::string::npos) << diff;
  EXPECT_NE(diff.find("\"/spec/replicas\""), std::string::npos) << diff;
  EXPECT_NE(diff.find("only in kustomize: PodDisruptionBudget dra-system/dra-controller"),
            std::string::npos)
      << diff;
}

TEST_F(HelmChartTest, ImageIsPinnedByDigestOrTag) {
  json byTag =
      Container({"image.repository=registry.example.com/gpu/dra-controller", "image.tag=v0.1.0"});
  EXPECT_EQ(byTag["image"], "registry.example.com/gpu/dra-controller:v0.1.0");
  json byDigest = Container({"image.repository=registry.example.com/gpu/dra-controller",
                             "image.tag=v0.1.0", std::string("image.digest=") + kDigest});
  EXPECT_EQ(byDigest["image"], std::string("registry.example.com/gpu/dra-controller@") + kDigest);
  auto refused = Template({"image.digest=latest"});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("image.digest \"latest\" is not sha256:"),
            std::string::npos)
      << refused.status().message();
}

TEST_F(HelmChartTest, FeatureValuesBecomeRunFlags) {
  json container =
      Container({"features.kubeletHealthReports=false", "features.deleteLeakedClaims=true",
                 "features.healthDryRun=true", "features.repairExtendedResourceMapping=true",
                 "metrics.secure=false", "leaderElection.enabled=false", "flags.health-preview=1m",
                 "extraArgs[0]=--log-level=debug"});
  json args = container["args"];
  for (const char* flag :
       {"--kubelet-health-reports=false", "--delete-leaked-claims", "--health-dry-run",
        "--repair-extended-resource-mapping", "--health-preview=1m", "--log-level=debug"}) {
    EXPECT_NE(std::find(args.begin(), args.end(), flag), args.end()) << flag << " in " << args;
  }
  for (const char* flag : {"--metrics-secure", "--leader-elect"}) {
    EXPECT_EQ(std::find(args.begin(), args.end(), flag), args.end()) << flag << " in " << args;
  }
  EXPECT_EQ(args.back(), "--log-level=debug");
}

TEST_F(HelmChartTest, AlertmanagerReceiverOpensItsPortEverywhere) {
  const std::string on = "alertmanagerReceiver.enabled=true";
  const std::string off = "alertmanagerReceiver.enabled=false";
  for (const std::string& set : {on, off}) {
    auto objects = Template({set, "alertmanagerReceiver.port=8444"});
    ASSERT_TRUE(objects.ok()) << objects.status().ToString();
    const std::string ns = std::string(" ") + kNamespace + "/dra-controller";
    json container = (*objects)["Deployment" + ns]["spec"]["template"]["spec"]["containers"][0];
    json args = container["args"];
    bool has_arg = std::find(args.begin(), args.end(),
                             "--alertmanager-webhook-bind-address=:8444") != args.end();
    bool has_container_port = container["ports"].dump().find("\"alerts\"") != std::string::npos;
    bool has_service_port =
        (*objects)["Service" + ns]["spec"]["ports"].dump().find("\"alerts\"") != std::string::npos;
    bool has_policy_port =
        (*objects)["NetworkPolicy" + ns]["spec"].dump().find("8444") != std::string::npos;
    bool has_pod_name = container["env"].dump().find("\"POD_NAME\"") != std::string::npos;
    bool want = set == on;
    EXPECT_EQ(has_pod_name, want) << set;
    EXPECT_EQ(has_arg, want) << set;
    EXPECT_EQ(has_container_port, want) << set;
    EXPECT_EQ(has_service_port, want) << set;
    EXPECT_EQ(has_policy_port, want) << set;
  }
}

// The Deployment serves the certificate of Secret `secret` from its mount.
void ExpectServesSecret(const json& deployment, const std::string& secret) {
  const json& pod = deployment["spec"]["template"]["spec"];
  const json& args = pod["containers"][0]["args"];
  EXPECT_NE(std::find(args.begin(), args.end(), "--metrics-cert-dir=/etc/dra-controller/tls"),
            args.end())
      << args;
  EXPECT_EQ(
      pod["containers"][0]["volumeMounts"],
      json::parse(R"([{"name":"tls","mountPath":"/etc/dra-controller/tls","readOnly":true}])"));
  json volume = {{"name", "tls"}, {"secret", {{"secretName", secret}}}};
  EXPECT_EQ(pod["volumes"], json::array({volume}));
}

TEST_F(HelmChartTest, TlsSecretValueRendersTheTlsComponent) {
  auto kustomize = KustomizeWith({"manifests/tls"});
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  auto chart = Template({"tls.secretName=dra-controller-tls"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(Diff(*kustomize, *chart), "");
  const std::string deployment = std::string("Deployment ") + kNamespace + "/dra-controller";
  ExpectServesSecret((*kustomize)[deployment], "dra-controller-tls");
  auto named = Template({"tls.secretName=corp-serving"});
  ASSERT_TRUE(named.ok()) << named.status().ToString();
  ExpectServesSecret((*named)[deployment], "corp-serving");
  auto plain = Template({"tls.secretName=corp-serving", "metrics.secure=false"});
  ASSERT_FALSE(plain.ok());
  EXPECT_NE(plain.status().message().find("need metrics.secure=true"), std::string::npos)
      << plain.status().message();
}

// cert-manager: a private CA signs a certificate for the Service's names
// into the Secret the Deployment mounts.
TEST_F(HelmChartTest, CertManagerValueRendersTheCertManagerComponent) {
  auto kustomize = KustomizeWith({"manifests/cert-manager"});
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  auto chart = Template({"tls.certManager.enabled=true"});
  ASSERT_TRUE(chart.ok()) << chart.status().ToString();
  EXPECT_EQ(Diff(*kustomize, *chart), "");
  const std::string ns = std::string(" ") + kNamespace + "/";
  json serving = (*kustomize)["Certificate" + ns + "dra-controller"]["spec"];
  EXPECT_EQ(serving["dnsNames"],
            json({"dra-controller", "dra-controller.dra-system", "dra-controller.dra-system.svc",
                  "dra-controller.dra-system.svc.cluster.local"}));
  ExpectServesSecret((*kustomize)["Deployment" + ns + "dra-controller"], serving["secretName"]);
  EXPECT_EQ(serving["usages"], json({"server auth", "digital signature"}));
  // serving <- Issuer dra-controller-ca <- its CA Secret <- a CA certificate
  json issuer = (*kustomize)["Issuer" + ns + serving["issuerRef"]["name"].get<std::string>()];
  json ca = (*kustomize)["Certificate" + ns + "dra-controller-ca"]["spec"];
  EXPECT_EQ(issuer["spec"]["ca"]["secretName"], ca["secretName"]);
  EXPECT_EQ(ca["isCA"], true);
  EXPECT_TRUE(
      (*kustomize)["Issuer" + ns + ca["issuerRef"]["name"].get<std::string>()]["spec"].contains(
          "selfSigned"));
}

TEST_F(HelmChartTest, CertManagerNamesTheReleaseNamespaceAndAGivenIssuer) {
  auto rendered =
      Helm({"template", kRelease, Chart(), "--namespace", "gpu-system", "--set",
            "tls.certManager.enabled=true", "--set", "tls.certManager.issuerRef.name=corp-ca",
            "--set", "tls.certManager.issuerRef.kind=ClusterIssuer"});
  ASSERT_TRUE(rendered.ok()) << rendered.status().ToString();
  auto objects = Parse(rendered->out);
  ASSERT_TRUE(objects.ok()) << objects.status().ToString();
  json serving = (*objects)["Certificate gpu-system/dra-controller"]["spec"];
  EXPECT_EQ(serving["dnsNames"][2], "dra-controller.gpu-system.svc");
  EXPECT_EQ(serving["issuerRef"],
            json::parse(R"({"group":"cert-manager.io","kind":"ClusterIssuer","name":"corp-ca"})"));
  for (const auto& [key, object] : *objects) {
    EXPECT_NE(object["kind"], "Issuer") << key << ": no CA of its own with a given issuer";
  }
  ExpectServesSecret((*objects)["Deployment gpu-system/dra-controller"], "dra-controller-tls");
}

TEST_F(HelmChartTest, InstallsUpgradesAndUninstallsInTheControlPlane) {
  touched_ = installed_ = true;
  helm_made_crd_ = !CrdExists();
  auto install = Helm({"install", kRelease, Chart(), "-n", kInstallNamespace, "--create-namespace",
                       "--set", "image.repository=registry.example.com/gpu/dra-controller", "--set",
                       std::string("image.digest=") + kDigest, "--timeout=90s"});
  ASSERT_TRUE(install.ok()) << install.status().ToString();

  auto ns = cluster_->GetJson({"get", "namespace", kInstallNamespace});
  ASSERT_TRUE(ns.ok()) << ns.status().ToString();
  EXPECT_EQ((*ns)["metadata"]["labels"].value("pod-security.kubernetes.io/enforce", ""),
            "restricted");
  auto deployment =
      cluster_->GetJson({"get", "deployment", "dra-controller", "-n", kInstallNamespace});
  ASSERT_TRUE(deployment.ok()) << deployment.status().ToString();
  EXPECT_EQ((*deployment)["spec"]["replicas"], 2);
  EXPECT_EQ((*deployment)["spec"]["template"]["spec"]["containers"][0]["image"],
            std::string("registry.example.com/gpu/dra-controller@") + kDigest);
  EXPECT_EQ((*deployment)["metadata"]["labels"].value("app.kubernetes.io/managed-by", ""), "Helm");

  // The ClusterRoles grant what manifests/base and the device-health
  // component grant, to the service account in the release namespace.
  auto kustomize = Kustomize("manifests");
  ASSERT_TRUE(kustomize.ok()) << kustomize.status().ToString();
  for (const std::string name : {"dra-controller", "dra-controller-device-health"}) {
    auto role = cluster_->GetJson({"get", "clusterrole", name});
    ASSERT_TRUE(role.ok()) << role.status().ToString();
    EXPECT_EQ((*role)["rules"], (*kustomize)["ClusterRole /" + name]["rules"]) << name;
    auto binding = cluster_->GetJson({"get", "clusterrolebinding", name});
    ASSERT_TRUE(binding.ok()) << binding.status().ToString();
    EXPECT_EQ((*binding)["subjects"][0]["namespace"], kInstallNamespace) << name;
  }
  for (const char* object :
       {"serviceaccount/dra-controller", "service/dra-controller", "networkpolicy/dra-controller",
        "poddisruptionbudget/dra-controller", "role/dra-controller-leader-election",
        "rolebinding/dra-controller-leader-election", "role/dra-controller-alert-resolutions",
        "rolebinding/dra-controller-alert-resolutions"}) {
    EXPECT_TRUE(cluster_->Kubectl({"get", object, "-n", kInstallNamespace}).ok()) << object;
  }
  EXPECT_TRUE(CrdExists());  // from crds/, or skipped by Helm when already there

  auto upgrade = Helm({"upgrade", kRelease, Chart(), "-n", kInstallNamespace, "--reuse-values",
                       "--set", "replicas=3", "--timeout=90s"});
  ASSERT_TRUE(upgrade.ok()) << upgrade.status().ToString();
  deployment = cluster_->GetJson({"get", "deployment", "dra-controller", "-n", kInstallNamespace});
  ASSERT_TRUE(deployment.ok()) << deployment.status().ToString();
  EXPECT_EQ((*deployment)["spec"]["replicas"], 3);
  auto status = Helm({"status", kRelease, "-n", kInstallNamespace, "-o", "json"});
  ASSERT_TRUE(status.ok()) << status.status().ToString();
  json release = json::parse(status->out, nullptr, false);
  EXPECT_EQ(release.value("version", 0), 2) << status->out;

  auto uninstall =
      Helm({"uninstall", kRelease, "-n", kInstallNamespace, "--wait", "--timeout=90s"});
  ASSERT_TRUE(uninstall.ok()) << uninstall.status().ToString();
  installed_ = false;
  for (const std::vector<std::string>& gone :
       {std::vector<std::string>{"clusterrole", "dra-controller"},
        {"clusterrolebinding", "dra-controller"},
        {"clusterrole", "dra-controller-metrics-reader"}}) {
    auto got = cluster_->Kubectl({"get", gone[0], gone[1], "--ignore-not-found", "-o", "name"});
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(got->out, "") << gone[0] << "/" << gone[1] << " left by helm uninstall";
  }
  auto left = cluster_->Kubectl({"get", "deployment,serviceaccount,role,rolebinding", "-n",
                                 kInstallNamespace, "-l", "app.kubernetes.io/name=dra-controller",
                                 "-o", "name"});
  ASSERT_TRUE(left.ok()) << left.status().ToString();
  EXPECT_EQ(left->out, "") << "left by helm uninstall";
  // Kept on purpose: the CRD (Helm never deletes crds/, so DeviceHealths
  // survive) and the Namespace (resource-policy keep; deleting it under Helm
  // would delete the release records Helm purges last, failing the uninstall).
  EXPECT_TRUE(CrdExists());
  EXPECT_TRUE(cluster_->Kubectl({"get", "namespace", kInstallNamespace}).ok());
}

}  // namespace
}  // namespace dra::testing
