#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/auth/ServingCertificate.h"
#include "src/base/Result.h"
#include "src/http/EndpointServer.h"

namespace kube {

// The certificate every server of a process presents: the files of a
// certificate directory (tls.crt, tls.key; re-read when they change), or
// without one a self-signed certificate made on first use and shared by all
// servers, so a client that trusts one trusts them all.
class ServingTlsSource {
 public:
  // `self_signed_names`: the DNS names the fallback certificate covers.
  ServingTlsSource(std::string cert_dir, std::vector<std::string> self_signed_names);

  Result<EndpointServer::TlsOptions> Get() const;

  // The names clients in the cluster dial a Service by: NAME, NAME.NS,
  // NAME.NS.svc and NAME.NS.svc.cluster.local, after "localhost". Without a
  // name, localhost only.
  static std::vector<std::string> ServiceNames(const std::string& name, const std::string& ns);

 private:
  Result<ServingCertificate> SelfSigned() const;

  const std::string cert_dir_;
  const std::vector<std::string> self_signed_names_;
  mutable std::mutex mu_;
  mutable std::optional<ServingCertificate> self_signed_;
};

}  // namespace kube
