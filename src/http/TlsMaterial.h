#pragma once

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"

namespace kube {

// Certificates and key from a RestConfig, parsed once up front so that bad
// PEM is reported as a clear error before any connection is attempted, and
// then installed into each new TLS context.
class TlsMaterial {
 public:
  static Result<std::shared_ptr<TlsMaterial>> FromConfig(const RestConfig& config);

  // Trusts only the configured CA (replacing whatever store `ctx` had) when
  // one is set, and the system's trust store (OpenSSL's default paths, or
  // SSL_CERT_FILE / SSL_CERT_DIR, as Go's crypto/x509 reads them) when none
  // is; presents the client certificate when one is set.
  void InstallInto(SSL_CTX* ctx) const;

  bool has_ca() const { return !ca_certs_.empty(); }
  // The leaf client certificate, or null.
  const X509* client_certificate() const {
    return client_chain_.empty() ? nullptr : client_chain_[0].get();
  }

 private:
  struct X509Deleter {
    void operator()(X509* x) const { X509_free(x); }
  };
  struct KeyDeleter {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
  };
  using X509Ptr = std::unique_ptr<X509, X509Deleter>;

  static Result<std::vector<X509Ptr>> ParseCertificates(const std::string& pem, const char* what);

  std::vector<X509Ptr> ca_certs_;
  std::vector<X509Ptr> client_chain_;  // leaf first
  std::unique_ptr<EVP_PKEY, KeyDeleter> client_key_;
};

}  // namespace kube
