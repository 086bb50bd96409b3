#include "src/http/TlsDiagnosis.h"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

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

bool ConnectOne(const addrinfo* ai, int timeout_ms, Fd* out) {
  Fd sock;
  sock.fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK, ai->ai_protocol);
  if (sock.fd < 0) return false;
  if (connect(sock.fd, ai->ai_addr, ai->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return false;
    pollfd p{sock.fd, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof(err);
    if (poll(&p, 1, timeout_ms) != 1 ||
        getsockopt(sock.fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      return false;
    }
  }
  fcntl(sock.fd, F_SETFL, fcntl(sock.fd, F_GETFL) & ~O_NONBLOCK);
  timeval tv{timeout_ms / 1000, static_cast<suseconds_t>(timeout_ms % 1000) * 1000};
  setsockopt(sock.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(sock.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  std::swap(out->fd, sock.fd);
  return true;
}

// A TCP connection whose connect, reads and writes each give up after `timeout_ms`.
bool ConnectWithTimeout(const std::string& host, const std::string& port, int timeout_ms, Fd* out) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) return false;
  bool ok = false;
  for (addrinfo* ai = found; ai != nullptr && !ok; ai = ai->ai_next) {
    ok = ConnectOne(ai, timeout_ms, out);
  }
  freeaddrinfo(found);
  return ok;
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
  if (!ConnectWithTimeout(host, address.port, static_cast<int>(timeout.count()), &sock)) return "";
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
