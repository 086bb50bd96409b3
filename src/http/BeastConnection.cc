#include "src/http/BeastConnection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <poll.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>
#include <optional>
#include <type_traits>

namespace kube {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;

// client-go's dialer: TCP keep-alive probes after 30 s of silence, every 30 s.
constexpr int kKeepAliveSeconds = 30;

struct Outcome {
  bool done = false;
  error_code ec;
  size_t bytes = 0;
};

// The completion handler every operation gets: records the error and, for
// reads and writes, the byte count.
struct Record {
  Outcome* outcome;
  template <typename... Rest>
  void operator()(const error_code& ec, const Rest&... rest) const {
    outcome->done = true;
    outcome->ec = ec;
    (Bytes(rest), ...);
  }
  template <typename T>
  void Bytes(const T& value) const {
    if constexpr (std::is_integral_v<T>) outcome->bytes = static_cast<size_t>(value);
  }
};

// Stops the connection's context when the flag fires, for as long as it lives.
class StopOnCancel {
 public:
  StopOnCancel(CancelFlag& cancel, asio::io_context& io) : cancel_(cancel) {
    cancel_.SetHook([&io] { io.stop(); });
  }
  ~StopOnCancel() { cancel_.SetHook(nullptr); }
  StopOnCancel(const StopOnCancel&) = delete;
  StopOnCancel& operator=(const StopOnCancel&) = delete;

 private:
  CancelFlag& cancel_;
};

bool IsIpLiteral(const std::string& host) {
  in6_addr unused;
  return inet_pton(AF_INET, host.c_str(), &unused) == 1 ||
         inet_pton(AF_INET6, host.c_str(), &unused) == 1;
}

void SetSocketOptions(int fd) {
  int on = 1;
  int interval = kKeepAliveSeconds;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));  // requests are single writes
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));  // watches idle for minutes
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &interval, sizeof(interval));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
}

}  // namespace

BeastConnection::BeastConnection() = default;

BeastConnection::~BeastConnection() {
  tls_.reset();  // before the socket it refers to
  error_code ignored;
  socket_.close(ignored);
}

template <typename Start>
Status BeastConnection::Run(Start start, Clock::time_point deadline, CancelFlag& cancel,
                            const char* what) {
  Outcome outcome;
  io_.restart();
  std::optional<StopOnCancel> stop_on_cancel(std::in_place, cancel, io_);
  start(Record{&outcome});
  Status interrupted = Status::Ok();
  while (!outcome.done) {
    if (cancel.cancelled()) {
      interrupted = Status(StatusCode::kCancelled, "request cancelled");
      break;
    }
    if (Clock::now() >= deadline) {
      interrupted = Status(StatusCode::kTimeout, std::string("timed out ") + what);
      break;
    }
    io_.run_one_until(deadline);
    if (io_.stopped()) io_.restart();
  }
  stop_on_cancel.reset();
  if (!outcome.done) {
    // Closing the socket completes the operation with operation_aborted; it
    // runs here, while what its handler refers to still exists.
    error_code ignored;
    socket_.close(ignored);
    io_.restart();
    while (!outcome.done && io_.run_one() > 0) {
    }
  }
  last_bytes_ = outcome.bytes;
  if (!interrupted.ok()) return interrupted;
  if (outcome.ec) return Status(StatusCode::kUnavailable, outcome.ec.message() + " " + what);
  return Status::Ok();
}

Result<std::unique_ptr<BeastConnection>> BeastConnection::Open(const Target& target,
                                                               Clock::time_point deadline,
                                                               CancelFlag& cancel) {
  std::unique_ptr<BeastConnection> connection(new BeastConnection());
  KUBE_RETURN_IF_ERROR(connection->Connect(target, deadline, cancel));
  if (target.tls != nullptr) KUBE_RETURN_IF_ERROR(connection->Handshake(target, deadline, cancel));
  return connection;
}

Status BeastConnection::Connect(const Target& target, Clock::time_point deadline,
                                CancelFlag& cancel) {
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
  // Synchronous, as getaddrinfo is: Asio's asynchronous resolver would start
  // a thread per connection.
  asio::ip::tcp::resolver resolver(io_);
  error_code ec;
  auto endpoints = resolver.resolve(target.host, target.port, ec);
  if (ec) {
    return Status(StatusCode::kUnavailable, "cannot resolve " + target.host + ": " + ec.message());
  }
  std::string what = "connecting to " + target.host + ":" + target.port;
  Status connected = Run([&](auto handler) { asio::async_connect(socket_, endpoints, handler); },
                         deadline, cancel, what.c_str());
  if (!connected.ok()) return connected;
  SetSocketOptions(socket_.native_handle());
  return Status::Ok();
}

Status BeastConnection::Handshake(const Target& target, Clock::time_point deadline,
                                  CancelFlag& cancel) {
  tls_context_ = target.tls;
  tls_ = std::make_unique<asio::ssl::stream<asio::ip::tcp::socket&>>(socket_, *tls_context_);
  SSL* ssl = tls_->native_handle();
  bool ip = IsIpLiteral(target.tls_name);
  if (!ip) SSL_set_tlsext_host_name(ssl, target.tls_name.c_str());
  SSL_set_verify(ssl, target.verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
  if (target.verify) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    // Subject alternative names only: no fallback to the common name (Go's rule).
    X509_VERIFY_PARAM_set_hostflags(
        param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
    int set = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, target.tls_name.c_str())
                 : X509_VERIFY_PARAM_set1_host(param, target.tls_name.c_str(), 0);
    if (set != 1) {
      ERR_clear_error();
      return Status(StatusCode::kInternal, "TLS: cannot verify against " + target.tls_name);
    }
  }
  Status shaken =
      Run([&](auto handler) { tls_->async_handshake(asio::ssl::stream_base::client, handler); },
          deadline, cancel, "during the TLS handshake");
  if (shaken.ok() || shaken.code() != StatusCode::kUnavailable) return shaken;
  long verify = SSL_get_verify_result(ssl);
  ERR_clear_error();
  if (target.verify && verify != X509_V_OK) {
    return Status(StatusCode::kUnavailable,
                  std::string("server certificate not trusted: ") +
                      X509_verify_cert_error_string(verify) +
                      " (TLS: the server certificate is not signed by the configured "
                      "certificate-authority, or no subject alternative name matches the server "
                      "address)");
  }
  return Status(StatusCode::kUnavailable, "TLS handshake failed: " + shaken.message() +
                                              " (check the CA, the client certificate and key)");
}

Status BeastConnection::Write(std::string_view data, Clock::time_point deadline, CancelFlag& cancel,
                              size_t* written) {
  last_bytes_ = 0;
  auto buffer = asio::buffer(data.data(), data.size());
  Status status = Run(
      [&](auto handler) {
        if (tls_ != nullptr) {
          asio::async_write(*tls_, buffer, handler);
        } else {
          asio::async_write(socket_, buffer, handler);
        }
      },
      deadline, cancel, "sending the request");
  *written = last_bytes_;
  return status;
}

Result<size_t> BeastConnection::Read(char* buffer, size_t size, Clock::time_point deadline,
                                     CancelFlag& cancel) {
  last_bytes_ = 0;
  read_error_ = {};
  auto into = asio::buffer(buffer, size);
  Status status = Run(
      [&](auto handler) {
        auto keep_error = [this, handler](const error_code& ec, size_t got) {
          read_error_ = ec;
          if (ec == asio::error::eof) {
            handler(error_code(), got);  // a clean close: 0 bytes
            return;
          }
          handler(ec, got);
        };
        if (tls_ != nullptr) {
          tls_->async_read_some(into, keep_error);
        } else {
          socket_.async_read_some(into, keep_error);
        }
      },
      deadline, cancel, "waiting for the response");
  if (status.ok()) return last_bytes_;
  if (read_error_ == asio::ssl::error::stream_truncated) {
    return Status(StatusCode::kUnavailable,
                  "TLS connection closed without close_notify while waiting for the response "
                  "(possibly truncated by an attacker)");
  }
  return status;
}

bool BeastConnection::LooksIdle() {
  pollfd fd{socket_.native_handle(), POLLIN | POLLRDHUP, 0};
  return socket_.is_open() && poll(&fd, 1, 0) == 0;
}

}  // namespace kube
