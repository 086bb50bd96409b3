#include "src/http/TlsMaterial.h"

#include <openssl/err.h>
#include <openssl/pem.h>

namespace kube {
namespace {

std::string OpenSslError() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "no PEM data found";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return buf;
}

struct BioDeleter {
  void operator()(BIO* b) const { BIO_free(b); }
};

}  // namespace

Result<std::vector<TlsMaterial::X509Ptr>> TlsMaterial::ParseCertificates(const std::string& pem,
                                                                         const char* what) {
  std::unique_ptr<BIO, BioDeleter> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  std::vector<X509Ptr> certs;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    certs.emplace_back(cert);
  }
  ERR_clear_error();  // the loop always ends with a "no start line" error
  if (certs.empty()) {
    return Status(StatusCode::kInvalidArgument, std::string(what) + " contains no PEM certificate");
  }
  return certs;
}

Result<std::shared_ptr<TlsMaterial>> TlsMaterial::FromConfig(const RestConfig& config) {
  auto material = std::make_shared<TlsMaterial>();
  if (!config.ca_pem.empty()) {
    KUBE_ASSIGN_OR_RETURN(material->ca_certs_,
                          ParseCertificates(config.ca_pem, "certificate-authority"));
  }
  if (!config.client_cert_pem.empty()) {
    KUBE_ASSIGN_OR_RETURN(material->client_chain_,
                          ParseCertificates(config.client_cert_pem, "client-certificate"));
    std::unique_ptr<BIO, BioDeleter> bio(BIO_new_mem_buf(
        config.client_key_pem.data(), static_cast<int>(config.client_key_pem.size())));
    material->client_key_.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (!material->client_key_) {
      return Status(StatusCode::kInvalidArgument,
                    "client-key is not a PEM private key: " + OpenSslError());
    }
    if (X509_check_private_key(material->client_chain_[0].get(), material->client_key_.get()) !=
        1) {
      ERR_clear_error();
      return Status(StatusCode::kInvalidArgument, "client-key does not match client-certificate");
    }
  }
  return material;
}

void TlsMaterial::InstallInto(SSL_CTX* ctx) const {
  if (!ca_certs_.empty()) {
    X509_STORE* store = X509_STORE_new();
    for (const auto& cert : ca_certs_) X509_STORE_add_cert(store, cert.get());
    SSL_CTX_set_cert_store(ctx, store);  // takes ownership, drops the system store
  } else {
    SSL_CTX_set_default_verify_paths(ctx);  // honours SSL_CERT_FILE and SSL_CERT_DIR
  }
  if (!client_chain_.empty()) {
    SSL_CTX_use_certificate(ctx, client_chain_[0].get());
    for (size_t i = 1; i < client_chain_.size(); ++i) {
      X509_up_ref(client_chain_[i].get());
      SSL_CTX_add_extra_chain_cert(ctx, client_chain_[i].get());  // takes a reference
    }
    SSL_CTX_use_PrivateKey(ctx, client_key_.get());
  }
}

}  // namespace kube
