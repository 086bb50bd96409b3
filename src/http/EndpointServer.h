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

#include "src/base/Result.h"

struct mg_context;
struct mg_connection;
struct ssl_ctx_st;

namespace kube {

// A small HTTP server for probes (/healthz, /readyz) and /metrics, over
// civetweb (already a dependency of prometheus-cpp). Handlers run on the
// server's threads and must be thread-safe.
//
// With TlsOptions it serves HTTPS instead, on OpenSSL directly: Debian 12's
// civetweb 1.15 is built for the OpenSSL 1.1 API and cannot load OpenSSL 3
// (SSL_get_peer_certificate is gone), so its own TLS is unusable there. The
// HTTPS side answers one GET-style request per connection (no bodies, no
// keep-alive), which is all a metrics scraper needs.
class EndpointServer {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    std::string content_type = "text/plain; charset=utf-8";
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

  // bind_address: "HOST:PORT" or ":PORT" (all interfaces: IPv4, and IPv6 too
  // when Ipv6Supported()); port 0 picks a free one.
  static Result<std::unique_ptr<EndpointServer>> Start(
      const std::string& bind_address, const std::map<std::string, Handler>& routes);
  // Handlers that see the request; HTTPS when `tls` is given.
  static Result<std::unique_ptr<EndpointServer>> Start(const std::string& bind_address,
                                                       std::map<std::string, RequestHandler> routes,
                                                       std::optional<TlsOptions> tls);
  ~EndpointServer();

  int port() const { return port_; }
  bool tls() const { return ssl_ctx_ != nullptr; }
  // Whether civetweb was built with IPv6 (Debian 12's is not).
  static bool Ipv6Supported();

 private:
  struct TlsConnection {
    int fd = -1;
    std::atomic<bool> finished{false};
    std::thread thread;
  };

  EndpointServer() = default;
  static int Dispatch(::mg_connection* conn, void* route);
  Status StartPlain(const std::string& bind_address);
  Status StartTls(const std::string& bind_address, const TlsOptions& tls);
  const RequestHandler* FindRoute(const std::string& path) const;
  Reply Serve(const Request& request) const;
  void AcceptLoop();
  void ServeTlsConnection(TlsConnection* connection);
  void ReapFinishedConnections();
  void StopTls();

  mg_context* ctx_ = nullptr;
  std::map<std::string, RequestHandler> routes_;
  int port_ = 0;

  ssl_ctx_st* ssl_ctx_ = nullptr;
  int listen_fd_ = -1;
  int wake_fds_[2] = {-1, -1};
  std::thread accept_thread_;
  std::mutex connections_mu_;
  std::list<std::unique_ptr<TlsConnection>> connections_;
};

}  // namespace kube
