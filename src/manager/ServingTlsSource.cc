#include "src/manager/ServingTlsSource.h"

#include <spdlog/spdlog.h>

namespace kube {
namespace {

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

ServingTlsSource::ServingTlsSource(std::string cert_dir, std::vector<std::string> self_signed_names)
    : cert_dir_(std::move(cert_dir)), self_signed_names_(std::move(self_signed_names)) {}

std::vector<std::string> ServingTlsSource::ServiceNames(const std::string& name,
                                                        const std::string& ns) {
  std::vector<std::string> names{"localhost"};
  if (name.empty()) return names;
  names.push_back(name);
  if (ns.empty()) return names;
  for (const char* suffix : {"", ".svc", ".svc.cluster.local"}) {
    names.push_back(name + "." + ns + suffix);
  }
  return names;
}

Result<EndpointServer::TlsOptions> ServingTlsSource::Get() const {
  if (cert_dir_.empty()) {
    auto cert = SelfSigned();
    if (!cert.ok()) return cert.status().WithContext("serving certificate");
    return EndpointServer::TlsOptions{cert->cert_pem, cert->key_pem};
  }
  auto cert = ServingCertificate::FromDirectory(cert_dir_);
  if (!cert.ok()) return cert.status().WithContext("serving certificate");
  EndpointServer::TlsOptions tls{cert->cert_pem, cert->key_pem};
  tls.current = [dir = cert_dir_]() -> Result<std::pair<std::string, std::string>> {
    auto files = ServingCertificate::FromDirectory(dir);
    if (!files.ok()) return files.status();
    return std::make_pair(std::move(files->cert_pem), std::move(files->key_pem));
  };
  return tls;
}

Result<ServingCertificate> ServingTlsSource::SelfSigned() const {
  std::lock_guard lock(mu_);
  if (self_signed_) return *self_signed_;
  auto cert = ServingCertificate::SelfSigned(self_signed_names_);
  if (!cert.ok()) return cert.status();
  self_signed_ = *cert;
  spdlog::warn(
      "serving a self-signed certificate for {}, made at start and different in every replica: "
      "for trying it out only, as no client can verify it; mount a certificate (a "
      "kubernetes.io/tls Secret or cert-manager's) for Prometheus and Alertmanager to verify",
      Joined(self_signed_names_));
  return cert;
}

}  // namespace kube
