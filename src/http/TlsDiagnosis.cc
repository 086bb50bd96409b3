#include "src/http/TlsDiagnosis.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <memory>

namespace kube {
namespace {

struct CtxDeleter {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
struct BioDeleter {
  void operator()(BIO* b) const { BIO_free_all(b); }
};

// "127.0.0.1:6443" from "https://127.0.0.1:6443/..."; empty if not https.
std::string HostPort(const std::string& server, std::string* host) {
  const std::string scheme = "https://";
  if (server.rfind(scheme, 0) != 0) return "";
  std::string rest = server.substr(scheme.size());
  rest = rest.substr(0, rest.find('/'));
  size_t colon = rest.rfind(':');
  bool has_port = colon != std::string::npos && rest.find(']', colon) == std::string::npos;
  *host = has_port ? rest.substr(0, colon) : rest;
  if (!host->empty() && host->front() == '[') *host = host->substr(1, host->size() - 2);
  return has_port ? rest : rest + ":443";
}

std::string LastOpenSslError() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "connection closed during the handshake";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return buf;
}

}  // namespace

std::string DiagnoseTlsFailure(const std::string& server, const TlsMaterial& tls,
                               bool verify_peer) {
  std::string host;
  std::string target = HostPort(server, &host);
  if (target.empty()) return "";
  std::unique_ptr<SSL_CTX, CtxDeleter> ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return "";
  if (!tls.has_ca()) SSL_CTX_set_default_verify_paths(ctx.get());
  tls.InstallInto(ctx.get());
  SSL_CTX_set_verify(ctx.get(), verify_peer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
  std::unique_ptr<BIO, BioDeleter> bio(BIO_new_ssl_connect(ctx.get()));
  if (!bio) return "";
  BIO_set_conn_hostname(bio.get(), target.c_str());
  SSL* ssl = nullptr;
  BIO_get_ssl(bio.get(), &ssl);
  SSL_set_tlsext_host_name(ssl, host.c_str());
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  if (verify_peer && X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) {
    ERR_clear_error();
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
  }
  if (BIO_do_connect(bio.get()) == 1 && BIO_do_handshake(bio.get()) == 1) return "";
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    ERR_clear_error();
    return std::string("server certificate not trusted: ") + X509_verify_cert_error_string(verify);
  }
  return LastOpenSslError();
}

}  // namespace kube
