#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/http/CancelWake.h"

namespace kube {

// One TCP connection, with TLS over it for https, whose every wait is
// bounded by a deadline and woken by a cancel. Non-blocking underneath:
// connect, the handshake, reads and writes poll() the socket together with
// the cancel's eventfd. Failures are Status values: kTimeout when the
// deadline passed, kCancelled when the cancel fired, kUnavailable otherwise,
// each saying what was being done.
class HttpConnection {
 public:
  using Clock = std::chrono::steady_clock;

  struct Target {
    std::string host;  // a name or an IP literal, without brackets
    std::string port;
    // TLS when set: the context to take settings from, and the name to send
    // as SNI (unless an IP) and to verify the certificate against.
    SSL_CTX* tls = nullptr;
    std::string tls_name;
    bool verify = true;
  };

  // Resolves, connects and (for TLS) completes the handshake by `deadline`.
  static Result<std::unique_ptr<HttpConnection>> Open(const Target& target,
                                                      Clock::time_point deadline,
                                                      const CancelWake& wake);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Resolves and connects by `deadline`: a non-blocking socket with
  // TCP_NODELAY and keep-alive, which the caller owns. Open's first step; the
  // TLS diagnosis uses it alone.
  static Result<int> ConnectTcp(const Target& target, Clock::time_point deadline,
                                const CancelWake& wake);

  Status WriteAll(std::string_view data, Clock::time_point deadline, const CancelWake& wake);
  // Up to `size` bytes into `buffer`; 0 when the peer closed the connection.
  Result<size_t> Read(char* buffer, size_t size, Clock::time_point deadline,
                      const CancelWake& wake);

 private:
  HttpConnection(int fd, SSL* ssl) : fd_(fd), ssl_(ssl) {}

  static Status Handshake(SSL* ssl, int fd, Clock::time_point deadline, const CancelWake& wake);
  // Waits until `fd` is ready for `events` (POLLIN/POLLOUT).
  static Status WaitFor(int fd, short events, Clock::time_point deadline, const CancelWake& wake,
                        const char* what);
  // Waits as SSL asks after a call returned `result`; an error otherwise.
  static Status WaitForSsl(SSL* ssl, int fd, int result, Clock::time_point deadline,
                           const CancelWake& wake, const char* what);

  int fd_;
  SSL* ssl_;  // null for plain HTTP
};

}  // namespace kube
