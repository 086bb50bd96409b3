#include "src/http/TlsDiagnosis.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>

#include "src/http/HttpConnection.h"
#include "src/http/HttpTransport.h"
#include "src/http/ServerAddress.h"

namespace kube {
namespace {

struct CtxDeleter {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
struct SslDeleter {
  void operator()(SSL* s) const { SSL_free(s); }
};

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// HttpConnection's connect, then blocking with `timeout` on every read and
// write: the one handshake below needs no poll loop.
bool ConnectWithTimeout(const ServerAddress& address, std::chrono::milliseconds timeout, Fd* out) {
  CancelFlag never;
  CancelWake wake(never);
  HttpConnection::Target target;
  target.host = address.host;
  target.port = address.port;
  auto fd = HttpConnection::ConnectTcp(target, HttpConnection::Clock::now() + timeout, wake);
  if (!fd.ok()) return false;
  out->fd = *fd;
  fcntl(out->fd, F_SETFL, fcntl(out->fd, F_GETFL) & ~O_NONBLOCK);
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>(timeout.count() % 1000) * 1000};
  setsockopt(out->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(out->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  return true;
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

std::string DiagnoseTlsFailure(const std::string& server, const TlsMaterial& tls, bool verify_peer,
                               std::chrono::milliseconds timeout) {
  ServerAddress address = ServerAddress::Parse(server);
  if (!address.https) return "";
  const std::string& host = address.host;
  std::unique_ptr<SSL_CTX, CtxDeleter> ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return "";
  tls.InstallInto(ctx.get());
  SSL_CTX_set_verify(ctx.get(), verify_peer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
  Fd sock;
  if (!ConnectWithTimeout(address, timeout, &sock)) return "";
  std::unique_ptr<SSL, SslDeleter> owned(SSL_new(ctx.get()));
  SSL* ssl = owned.get();
  if (ssl == nullptr || SSL_set_fd(ssl, sock.fd) != 1) return "";
  SSL_set_tlsext_host_name(ssl, host.c_str());
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  if (verify_peer && X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) {
    ERR_clear_error();
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
  }
  if (SSL_connect(ssl) == 1) return "";
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    ERR_clear_error();
    return std::string("server certificate not trusted: ") + X509_verify_cert_error_string(verify);
  }
  return LastOpenSslError();
}

}  // namespace kube
