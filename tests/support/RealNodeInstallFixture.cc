#include "tests/support/RealNodeInstallFixture.h"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "tests/support/RepoRoot.h"
#include "tests/support/TestCertificates.h"

namespace dra::testing {

using nlohmann::json;

void RealNodeInstallFixture::SetUp() {
  RealNodeTest::SetUp();
  if (Skipped()) return;
  const char* socket = std::getenv("DRA_NODE_CONTAINERD_SOCKET");
  auto image = Subprocess::Run({"ctr", "--address", socket ? socket : "", "-n", "k8s.io", "images",
                                "check", std::string("name==") + kImage});
  if (!image.ok() || image->out.find("complete") == std::string::npos) {
    std::string why = std::string("no ") + kImage + " on the node (make image, then node-up)";
    if (std::getenv("DRA_REQUIRE_NODE_IMAGE") != nullptr) FAIL() << why;
    GTEST_SKIP() << why;
  }
  auto crds = cluster_->Kubectl({"apply", "-k", RepoRoot::Path("crds")});
  ASSERT_TRUE(crds.ok()) << crds.status().ToString();
}

void RealNodeInstallFixture::TearDown() {
  if (cluster_ && overlay_) {
    (void)cluster_->Kubectl(
        {"delete", "-k", overlay_->path(), "--ignore-not-found", "--wait=true", "--timeout=120s"});
  }
  if (cluster_ && helm_installed_) {
    (void)Helm({"uninstall", "dra-controller", "-n", namespace_, "--wait", "--timeout=120s"});
    (void)cluster_->Kubectl({"delete", "namespace", namespace_, "--wait=true", "--timeout=120s"});
  }
  RealNodeTest::TearDown();
}

void RealNodeInstallFixture::Install() {
  if (!overlay_) {
    overlay_.emplace(std::vector<std::string>{"manifests"},
                     std::vector<std::string>{"manifests/tls"}, OnTheNode());
  }
  (void)cluster_->Kubectl({"create", "namespace", namespace_});
  ASSERT_NO_FATAL_FAILURE(CreateTlsSecret("dra-controller-tls"));
  auto applied = cluster_->Kubectl({"apply", "-k", overlay_->path()});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  ASSERT_NO_FATAL_FAILURE(RolloutStatus());
}

// The suite's fake fleet nodes are Ready and run nothing: a replica the
// scheduler put there would never start. So the Pods go to the real node.
std::string RealNodeInstallFixture::OnTheNode() const {
  return "patches:\n"
         "  - target: {kind: Deployment, name: dra-controller}\n"
         "    patch: |-\n"
         "      - op: add\n"
         "        path: /spec/template/spec/nodeSelector\n"
         "        value: {kubernetes.io/hostname: " +
         node_->name() + "}\n";
}

void RealNodeInstallFixture::RolloutStatus() {
  auto started = std::chrono::steady_clock::now();
  auto rolled = cluster_->Kubectl(
      {"-n", namespace_, "rollout", "status", "deployment/dra-controller", "--timeout=180s"});
  ASSERT_TRUE(rolled.ok()) << rolled.status().ToString() << "\n" << PodsAndEvents();
  std::cout << "[ real node ] rollout status: complete after " << SecondsSince(started) << " s\n";
}

void RealNodeInstallFixture::CreateTlsSecret(const std::string& name) {
  TestCertificates pki(pki_dir_.path().string());
  auto ca = pki.MakeCa("ca");
  ASSERT_TRUE(ca.ok()) << ca.status().ToString();
  auto leaf =
      pki.MakeLeaf(*ca, "serving", "dra-controller", "DNS:dra-controller." + namespace_ + ".svc");
  ASSERT_TRUE(leaf.ok()) << leaf.status().ToString();
  ca_file_ = ca->cert;
  auto secret = cluster_->Kubectl({"-n", namespace_, "create", "secret", "tls", name,
                                   "--cert=" + leaf->cert, "--key=" + leaf->key});
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
}

kube::Result<ProcessOutput> RealNodeInstallFixture::Helm(std::vector<std::string> args) {
  const char* helm = std::getenv("DRA_HELM");
  args.insert(args.begin(), helm != nullptr ? helm : "helm");
  return Subprocess::Run(args);
}

std::vector<std::string> RealNodeInstallFixture::ReadyPods() {
  std::vector<std::string> ready;
  auto pods = cluster_->GetJson(
      {"get", "pods", "-n", namespace_, "-l", "app.kubernetes.io/name=dra-controller"});
  if (!pods.ok()) return ready;
  for (const auto& pod : pods->value("items", json::array())) {
    if (pod.contains("/metadata/deletionTimestamp"_json_pointer)) continue;
    for (const auto& c : pod.value("/status/conditions"_json_pointer, json::array())) {
      if (c.value("type", "") == "Ready" && c.value("status", "") == "True") {
        ready.push_back(pod.value("/metadata/name"_json_pointer, std::string()));
      }
    }
  }
  return ready;
}

std::string RealNodeInstallFixture::PodIp(const std::string& pod) {
  auto got = cluster_->GetJson({"get", "pod", pod, "-n", namespace_});
  return got.ok() ? got->value("/status/podIP"_json_pointer, std::string()) : "";
}

std::string RealNodeInstallFixture::Leader() {
  auto lease = cluster_->GetJson({"get", "lease", "dra-controller", "-n", namespace_});
  if (!lease.ok()) return "";
  std::string holder = lease->value("/spec/holderIdentity"_json_pointer, std::string());
  return holder.substr(0, holder.find('_'));
}

std::string RealNodeInstallFixture::Log(const std::string& pod) {
  auto out = cluster_->Kubectl({"logs", "-n", namespace_, pod});
  return out.ok() ? out->out : "(" + out.status().ToString() + ")";
}

std::string RealNodeInstallFixture::PodsAndEvents() {
  auto pods = cluster_->Kubectl({"get", "pods", "-n", namespace_, "-o", "wide"});
  auto events = cluster_->Kubectl({"get", "events", "-n", namespace_});
  return (pods.ok() ? pods->out : "") + (events.ok() ? events->out : "");
}

}  // namespace dra::testing
