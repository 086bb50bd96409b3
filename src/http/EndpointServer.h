#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "src/base/Result.h"

struct ssl_ctx_st;

namespace kube {

// A small HTTP server for probes (/healthz, /readyz) and /metrics, on plain
// sockets, or HTTPS on OpenSSL when TlsOptions are given. It answers one
// GET-style request per connection (no request bodies, no keep-alive), which
// is all the kubelet and a metrics scraper need, on a thread per connection:
// at most 16 at once, each within 5 s for its whole exchange. When all are
// taken a newcomer evicts the oldest connection that has not sent a complete
// request yet, so idle sockets cannot keep probes out. Handlers run on the
// connection threads and must be thread-safe.
class EndpointServer {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    std::string content_type = "text/plain; charset=utf-8";
    // Sent after `body`, in order, straight from the shared buffers: a large
    // cached text (a metrics exposition) is written without being copied.
    // The buffers must not change while the reply is written.
    std::vector<std::shared_ptr<const std::string>> shared_body = {};

    // Bytes of body and shared_body together (the Content-Length).
    std::size_t BodySize() const;
  };
  // What a RequestHandler learns about the request.
  struct Request {
    std::string method;
    std::string path;           // without the query
    std::string authorization;  // the Authorization header, "" when absent
  };
  using Handler = std::function<Reply()>;
  using RequestHandler = std::function<Reply(const Request&)>;
  // PEM certificate (leaf first, then any chain) and private key.
  struct TlsOptions {
    std::string cert_pem;
    std::string key_pem;
  };

  // bind_address: "HOST:PORT", "[IPv6]:PORT", or ":PORT" / "[::]:PORT" (all
  // interfaces, dual-stack; IPv4 only when the host has no IPv6); port 0
  // picks a free one.
  static Result<std::unique_ptr<EndpointServer>> Start(
      const std::string& bind_address, const std::map<std::string, Handler>& routes);
  // Handlers that see the request; HTTPS when `tls` is given.
  static Result<std::unique_ptr<EndpointServer>> Start(const std::string& bind_address,
                                                       std::map<std::string, RequestHandler> routes,
                                                       const std::optional<TlsOptions>& tls);
  ~EndpointServer();

  int port() const { return port_; }
  bool tls() const { return ssl_ctx_ != nullptr; }

 private:
  struct Connection {
    int fd = -1;                            // -1 once closed (under connections_mu_)
    std::atomic<bool> request_read{false};  // past the request head: not idle
    std::atomic<bool> evicted{false};
    std::atomic<bool> finished{false};
    std::thread thread;
  };

  EndpointServer() = default;
  Status Listen(const std::string& bind_address, const std::optional<TlsOptions>& tls);
  const RequestHandler* FindRoute(const std::string& path) const;
  Reply Serve(const Request& request) const;
  void AcceptLoop();
  bool MakeRoomLocked();
  void ServeConnection(Connection* connection);
  void ReapFinishedConnections();
  void JoinEvictedConnectionsIfMany();
  void Stop();

  std::map<std::string, RequestHandler> routes_;
  int port_ = 0;

  ssl_ctx_st* ssl_ctx_ = nullptr;
  int listen_fd_ = -1;
  int wake_fds_[2] = {-1, -1};
  std::thread accept_thread_;
  std::mutex connections_mu_;
  std::list<std::unique_ptr<Connection>> connections_;
};

}  // namespace kube
