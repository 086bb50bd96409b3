#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "src/base/Result.h"

namespace kube {

// A TLS server's certificate chain and private key, PEM-encoded.
struct ServingCertificate {
  std::string cert_pem;
  std::string key_pem;

  // tls.crt and tls.key from `dir` (a mounted kubernetes.io/tls Secret).
  static Result<ServingCertificate> FromDirectory(const std::string& dir);
  // A self-signed ECDSA P-256 certificate for `dns_names` (the first is the
  // common name) and 127.0.0.1, generated in memory; the key never touches disk.
  static Result<ServingCertificate> SelfSigned(
      const std::vector<std::string>& dns_names,
      std::chrono::hours validity = std::chrono::hours(24 * 365));
};

}  // namespace kube
