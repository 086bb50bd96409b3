#include "tests/support/TestCluster.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>

#include "src/config/ConfigLoader.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

std::string RandomSuffix() {
  static thread_local std::mt19937 rng(std::random_device{}());
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (int i = 0; i < 6; ++i) s += kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
  return s;
}

}  // namespace

kube::Result<TestCluster> TestCluster::FromEnvironment() {
  std::string kubeconfig = EnvOr("KUBECONFIG", "");
  std::string kubectl = EnvOr("DRA_KUBECTL", "");
  if (kubeconfig.empty() || kubectl.empty()) {
    return kube::Status(kube::StatusCode::kUnavailable,
                        "no test control plane: KUBECONFIG and DRA_KUBECTL are unset; run "
                        "`make test`, or `make cluster-up` and `source .cluster/env`");
  }
  return TestCluster(kubeconfig, kubectl, EnvOr("DRA_CLUSTER_DIR", ""));
}

kube::Result<ProcessOutput> TestCluster::Kubectl(const std::vector<std::string>& args,
                                                 const std::string& stdin_data) const {
  std::vector<std::string> argv{kubectl_, "--kubeconfig", kubeconfig_};
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = Subprocess::Run(argv, stdin_data);
  if (!result.ok()) return result.status();
  if (result->exit_code != 0) {
    std::string cmd = "kubectl";
    for (const auto& a : args) cmd += " " + a;
    return kube::Status(kube::StatusCode::kInternal,
                        cmd + " exited " + std::to_string(result->exit_code) + ": " + result->err);
  }
  return result;
}

kube::Result<nlohmann::json> TestCluster::GetJson(const std::vector<std::string>& args) const {
  std::vector<std::string> full = args;
  full.insert(full.end(), {"-o", "json"});
  auto out = Kubectl(full);
  if (!out.ok()) return out.status();
  auto parsed = nlohmann::json::parse(out->out, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return kube::Status(kube::StatusCode::kParseError, "kubectl printed invalid JSON: " + out->out);
  }
  return parsed;
}

kube::Status TestCluster::Apply(const std::string& manifest) const {
  auto out = Kubectl({"apply", "-f", "-"}, manifest);
  return out.ok() ? kube::Status::Ok() : out.status();
}

kube::Status TestCluster::Create(const std::string& manifest) const {
  auto out = Kubectl({"create", "-f", "-"}, manifest);
  return out.ok() ? kube::Status::Ok() : out.status();
}

kube::Status TestCluster::InstallDeviceHealthCrd() const {
  auto applied = Kubectl(
      {"apply", "-f", std::string(DRA_REPO_ROOT) + "/crds/devicehealths.dra-controller.dev.yaml"});
  if (!applied.ok()) return applied.status();
  return WaitForDeviceHealthKind();
}

// Established is not enough: kubectl resolves the kind through its discovery
// cache, which can lag the CRD by a moment, and an apply in that gap fails.
kube::Status TestCluster::WaitForDeviceHealthKind() const {
  auto established = Kubectl({"wait", "--for=condition=Established", "--timeout=30s",
                              "crd/devicehealths.dra-controller.dev"});
  if (!established.ok()) return established.status();
  return WaitFor("kubectl resolves kind DeviceHealth", std::chrono::seconds(30), [&] {
    return Kubectl({"get", "devicehealths.dra-controller.dev", "-A", "-o", "name"}).ok();
  });
}

kube::Result<std::string> TestCluster::CreateTestNamespace(
    const std::string& prefix, std::chrono::seconds service_account_deadline) const {
  std::string ns = prefix + "-" + RandomSuffix();
  auto created = Kubectl({"create", "namespace", ns});
  if (!created.ok()) return created.status();
  auto ready = WaitFor("ServiceAccount default in " + ns, service_account_deadline, [&] {
    return Kubectl({"get", "serviceaccount", "default", "-n", ns}).ok();
  });
  if (!ready.ok()) return ready;
  return ns;
}

void TestCluster::DeleteTestNamespace(const std::string& ns) const {
  (void)Kubectl(
      {"delete", "pods", "--all", "-n", ns, "--grace-period=0", "--force", "--wait=false"});
  (void)Kubectl({"delete", "namespace", ns, "--wait=false"});
}

kube::Result<std::shared_ptr<kube::RestClient>> TestCluster::NewRestClient() const {
  kube::ConfigOptions options;
  options.kubeconfig_flag = kubeconfig_;
  auto config = kube::ConfigLoader::Load(options);
  if (!config.ok()) return config.status();
  auto transport = kube::HttpTransport::Create(*config);
  if (!transport.ok()) return transport.status();
  return std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)));
}

kube::Status TestCluster::RestartComponent(const std::string& component) const {
  if (cluster_dir_.empty()) {
    return kube::Status(kube::StatusCode::kUnavailable, "DRA_CLUSTER_DIR is unset; cannot restart");
  }
  std::vector<std::string> argv{"env", "CLUSTER_DIR=" + cluster_dir_,
                                std::string(DRA_REPO_ROOT) + "/hack/control-plane/cluster.sh",
                                "restart", component};
  auto result = Subprocess::Run(argv, "", std::chrono::seconds(120));
  if (!result.ok()) return result.status();
  if (result->exit_code != 0) {
    return kube::Status(kube::StatusCode::kInternal,
                        "restart of " + component + " failed: " + result->err);
  }
  return kube::Status::Ok();
}

// A new namespace getting its default ServiceAccount proves that
// kube-controller-manager watches and acts again.
kube::Status TestCluster::WaitForControllersToCatchUp() const {
  auto started = std::chrono::steady_clock::now();
  auto ns = CreateTestNamespace("settle", std::chrono::seconds(150));
  if (!ns.ok()) return ns.status().WithContext("controllers did not catch up after the restart");
  (void)Kubectl({"delete", "namespace", *ns, "--wait=false"});
  std::cout << "kube-controller-manager caught up in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - started)
                   .count()
            << " ms\n";
  return kube::Status::Ok();
}

kube::Result<ProcessOutput> TestCluster::RunRepoScript(const std::string& relative_path,
                                                       const std::vector<std::string>& args,
                                                       std::chrono::seconds timeout) const {
  std::vector<std::string> argv{"env", "KUBECONFIG=" + kubeconfig_, "DRA_KUBECTL=" + kubectl_,
                                std::string(DRA_REPO_ROOT) + "/" + relative_path};
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = Subprocess::Run(argv, "", timeout);
  if (!result.ok()) return result.status();
  if (result->exit_code != 0) {
    return kube::Status(
        kube::StatusCode::kInternal,
        relative_path + " exited " + std::to_string(result->exit_code) + ": " + result->err);
  }
  return result;
}

}  // namespace dra::testing
