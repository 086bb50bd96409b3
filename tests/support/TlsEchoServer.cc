#include "tests/support/TlsEchoServer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "tests/support/TestTime.h"

namespace dra::testing {
namespace {

kube::Status Error(const std::string& what) {
  return kube::Status(kube::StatusCode::kInternal, "TlsEchoServer: " + what);
}

std::string PeerCommonName(SSL* ssl) {
  X509* peer = SSL_get1_peer_certificate(ssl);
  if (peer == nullptr) return "none";
  char cn[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, cn, sizeof(cn));
  X509_free(peer);
  return cn;
}

}  // namespace

kube::Result<std::unique_ptr<TlsEchoServer>> TlsEchoServer::Start(const std::string& cert_file,
                                                                  const std::string& key_file,
                                                                  const std::string& client_ca) {
  std::unique_ptr<TlsEchoServer> server(new TlsEchoServer());
  server->ctx_ = SSL_CTX_new(TLS_server_method());
  if (SSL_CTX_use_certificate_chain_file(server->ctx_, cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(server->ctx_, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    return Error("cannot load " + cert_file);
  }
  if (!client_ca.empty()) {
    SSL_CTX_load_verify_locations(server->ctx_, client_ca.c_str(), nullptr);
    SSL_CTX_set_verify(server->ctx_, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  server->listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (bind(server->listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(server->listen_fd_, 16) != 0 ||
      getsockname(server->listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
      pipe2(server->wake_, O_CLOEXEC) != 0) {
    return Error(std::strerror(errno));
  }
  server->port_ = ntohs(addr.sin_port);
  server->thread_ = std::thread([s = server.get()] { s->AcceptLoop(); });
  return server;
}

TlsEchoServer::~TlsEchoServer() {
  if (thread_.joinable()) {
    (void)!write(wake_[1], "x", 1);
    thread_.join();
  }
  for (int fd : {listen_fd_, wake_[0], wake_[1]}) {
    if (fd >= 0) close(fd);
  }
  SSL_CTX_free(ctx_);
}

void TlsEchoServer::AcceptLoop() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) Serve(fd);
  }
}

void TlsEchoServer::Serve(int fd) {
  // A client that stalls cannot hold the test server; a slow one (TSan on a
  // loaded machine took more than 2 s for a handshake) gets the scaled time.
  auto limit = TestTime::Scaled(std::chrono::seconds(2));
  timeval tv{static_cast<time_t>(limit.count() / 1000),
             static_cast<suseconds_t>(limit.count() % 1000 * 1000)};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  SSL* ssl = SSL_new(ctx_);
  SSL_set_fd(ssl, fd);
  if (SSL_accept(ssl) == 1) {
    std::string request;
    char buf[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
      int n = SSL_read(ssl, buf, sizeof(buf));
      if (n <= 0) break;
      request.append(buf, static_cast<size_t>(n));
    }
    {
      std::lock_guard lock(mu_);
      last_request_ = request;
    }
    std::string body = PeerCommonName(ssl);
    Ending ending = ending_.load();
    std::string length =
        ending == Ending::kFramed ? "Content-Length: " + std::to_string(body.size()) + "\r\n" : "";
    std::string response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + length +
                           "Connection: close\r\n\r\n" + body;
    SSL_write(ssl, response.data(), static_cast<int>(response.size()));
    if (ending != Ending::kUnframedTruncated) SSL_shutdown(ssl);
  }
  ERR_clear_error();
  SSL_free(ssl);
  close(fd);
}

}  // namespace dra::testing
