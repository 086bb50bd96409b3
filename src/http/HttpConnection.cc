#include "src/http/HttpConnection.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace kube {
namespace {

using Clock = HttpConnection::Clock;

// Upper bound of one poll(): a cancel whose eventfd could not be made is
// still seen this often.
constexpr std::chrono::milliseconds kMaxPoll{500};

bool IsIpLiteral(const std::string& host) {
  in6_addr unused;
  return inet_pton(AF_INET, host.c_str(), &unused) == 1 ||
         inet_pton(AF_INET6, host.c_str(), &unused) == 1;
}

std::string OpenSslError(const char* fallback) {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return fallback;
  char buffer[256];
  ERR_error_string_n(code, buffer, sizeof(buffer));
  return buffer;
}

struct AddrInfoDeleter {
  void operator()(addrinfo* found) const { freeaddrinfo(found); }
};

void SetSocketOptions(int fd) {
  int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));  // requests are single writes
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));  // watches idle for minutes
}

}  // namespace

Status HttpConnection::WaitFor(int fd, short events, Clock::time_point deadline,
                               const CancelWake& wake, const char* what) {
  while (true) {
    if (wake.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
    auto now = Clock::now();
    if (now >= deadline) return Status(StatusCode::kTimeout, std::string("timed out ") + what);
    auto wait = std::min(std::chrono::ceil<std::chrono::milliseconds>(deadline - now), kMaxPoll);
    pollfd fds[2] = {{fd, events, 0}, {wake.fd(), POLLIN, 0}};
    int ready = poll(fds, 2, static_cast<int>(wait.count()));
    if (ready < 0 && errno != EINTR) {
      return Status(StatusCode::kUnavailable, std::string("poll: ") + std::strerror(errno));
    }
    if (wake.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
    // Errors and hang-ups count as ready: the next call on the socket reports them.
    if (ready > 0 && fds[0].revents != 0) return Status::Ok();
  }
}

Result<int> HttpConnection::ConnectTcp(const Target& target, Clock::time_point deadline,
                                       const CancelWake& wake) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int gai = getaddrinfo(target.host.c_str(), target.port.c_str(), &hints, &found);
  std::string where = target.host + ":" + target.port;
  if (gai != 0) {
    return Status(StatusCode::kUnavailable,
                  "cannot resolve " + target.host + ": " + gai_strerror(gai));
  }
  std::unique_ptr<addrinfo, AddrInfoDeleter> owned(found);
  std::string failure = "no address";
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      failure = std::strerror(errno);
      continue;
    }
    int error = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? 0 : errno;
    if (error == EINPROGRESS) {
      Status waited = WaitFor(fd, POLLOUT, deadline, wake, ("connecting to " + where).c_str());
      if (!waited.ok()) {
        close(fd);
        return waited;
      }
      socklen_t size = sizeof(error);
      if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) error = errno;
    }
    if (error == 0) {
      SetSocketOptions(fd);
      return fd;
    }
    failure = std::strerror(error);
    close(fd);
  }
  return Status(StatusCode::kUnavailable, "connect to " + where + ": " + failure);
}

Status HttpConnection::WaitForSsl(SSL* ssl, int fd, int result, Clock::time_point deadline,
                                  const CancelWake& wake, const char* what) {
  int error = SSL_get_error(ssl, result);
  if (error == SSL_ERROR_WANT_READ) return WaitFor(fd, POLLIN, deadline, wake, what);
  if (error == SSL_ERROR_WANT_WRITE) return WaitFor(fd, POLLOUT, deadline, wake, what);
  if (error == SSL_ERROR_ZERO_RETURN) {
    return Status(StatusCode::kUnavailable, std::string("connection closed by the server ") + what);
  }
  if (error == SSL_ERROR_SYSCALL && errno != 0) {
    std::string message = std::strerror(errno);
    ERR_clear_error();
    return Status(StatusCode::kUnavailable, message + " " + what);
  }
  return Status(StatusCode::kUnavailable,
                OpenSslError("connection closed by the server") + " " + what);
}

Status HttpConnection::Handshake(SSL* ssl, int fd, Clock::time_point deadline,
                                 const CancelWake& wake) {
  while (true) {
    ERR_clear_error();
    int result = SSL_connect(ssl);
    if (result == 1) return Status::Ok();
    Status waited = WaitForSsl(ssl, fd, result, deadline, wake, "during the TLS handshake");
    if (waited.ok()) continue;
    if (waited.code() != StatusCode::kUnavailable) return waited;
    long verify = SSL_get_verify_result(ssl);
    if (verify != X509_V_OK) {
      return Status(StatusCode::kUnavailable,
                    std::string("server certificate not trusted: ") +
                        X509_verify_cert_error_string(verify) +
                        " (TLS: the server certificate is not signed by the configured "
                        "certificate-authority, or its name does not match the server address)");
    }
    return Status(StatusCode::kUnavailable, "TLS handshake failed: " + waited.message() +
                                                " (check the CA, the client certificate and key)");
  }
}

Result<std::unique_ptr<HttpConnection>> HttpConnection::Open(const Target& target,
                                                             Clock::time_point deadline,
                                                             const CancelWake& wake) {
  int fd = -1;
  KUBE_ASSIGN_OR_RETURN(fd, ConnectTcp(target, deadline, wake));
  if (target.tls == nullptr)
    return std::unique_ptr<HttpConnection>(new HttpConnection(fd, nullptr));
  SSL* ssl = SSL_new(target.tls);
  auto connection = std::unique_ptr<HttpConnection>(new HttpConnection(fd, ssl));
  if (ssl == nullptr || SSL_set_fd(ssl, fd) != 1) {
    return Status(StatusCode::kInternal, "TLS: " + OpenSslError("cannot create a session"));
  }
  SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // A peer that closes without close_notify ends the body like a plain close;
  // framing (Content-Length, chunked) still catches a truncated response.
  SSL_set_options(ssl, SSL_OP_IGNORE_UNEXPECTED_EOF);
  bool ip = IsIpLiteral(target.tls_name);
  if (!ip) SSL_set_tlsext_host_name(ssl, target.tls_name.c_str());
  SSL_set_verify(ssl, target.verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
  if (target.verify) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    int set = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, target.tls_name.c_str())
                 : X509_VERIFY_PARAM_set1_host(param, target.tls_name.c_str(), 0);
    if (set != 1) {
      return Status(StatusCode::kInternal, "TLS: cannot verify against " + target.tls_name);
    }
  }
  KUBE_RETURN_IF_ERROR(Handshake(ssl, fd, deadline, wake));
  return connection;
}

HttpConnection::~HttpConnection() {
  if (ssl_ != nullptr) {
    ERR_clear_error();
    SSL_shutdown(ssl_);  // one non-blocking attempt at close_notify
    SSL_free(ssl_);
    ERR_clear_error();
  }
  if (fd_ >= 0) close(fd_);
}

Status HttpConnection::WriteAll(std::string_view data, Clock::time_point deadline,
                                const CancelWake& wake) {
  while (!data.empty()) {
    ssize_t written;
    if (ssl_ != nullptr) {
      ERR_clear_error();
      int result =
          SSL_write(ssl_, data.data(), static_cast<int>(std::min<size_t>(data.size(), 1 << 30)));
      if (result <= 0) {
        KUBE_RETURN_IF_ERROR(WaitForSsl(ssl_, fd_, result, deadline, wake, "sending the request"));
        continue;
      }
      written = result;
    } else {
      written = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (written < 0) {
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
          return Status(StatusCode::kUnavailable,
                        std::string(std::strerror(errno)) + " sending the request");
        }
        KUBE_RETURN_IF_ERROR(WaitFor(fd_, POLLOUT, deadline, wake, "sending the request"));
        continue;
      }
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
  return Status::Ok();
}

Result<size_t> HttpConnection::Read(char* buffer, size_t size, Clock::time_point deadline,
                                    const CancelWake& wake) {
  while (true) {
    if (ssl_ != nullptr) {
      ERR_clear_error();
      int result = SSL_read(ssl_, buffer, static_cast<int>(std::min<size_t>(size, 1 << 30)));
      if (result > 0) return static_cast<size_t>(result);
      if (SSL_get_error(ssl_, result) == SSL_ERROR_ZERO_RETURN) return size_t{0};
      KUBE_RETURN_IF_ERROR(
          WaitForSsl(ssl_, fd_, result, deadline, wake, "waiting for the response"));
      continue;
    }
    ssize_t got = recv(fd_, buffer, size, 0);
    if (got >= 0) return static_cast<size_t>(got);
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return Status(StatusCode::kUnavailable,
                    std::string(std::strerror(errno)) + " waiting for the response");
    }
    KUBE_RETURN_IF_ERROR(WaitFor(fd_, POLLIN, deadline, wake, "waiting for the response"));
  }
}

}  // namespace kube
