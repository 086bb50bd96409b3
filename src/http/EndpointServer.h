#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "src/base/Result.h"
#include "src/http/EndpointRouter.h"

namespace kube {

struct EndpointLimits {
  std::size_t max_connections = 64;
  // From the accept to the last byte of the reply, handshake included.
  std::chrono::milliseconds deadline{5000};
};

// A small HTTP/1.1 server for probes (/healthz, /readyz), /metrics and small
// API endpoints, on Boost.Beast's request parser and Boost.Asio, plain or
// HTTPS (TLS 1.2 or later) when TlsOptions are given. One request per
// connection (Connection: close). All sockets are served asynchronously on a
// fixed pair of I/O threads; route handlers run on a separate pair, so a slow
// handler never stalls the I/O. Limits (EndpointExchange, EndpointRouter,
// EndpointConnections): the request line and headers at most 8 KiB (431),
// a body only where the route takes one and within its limit (413), methods
// per route (405 with Allow), unknown or unsafe paths 404, malformed
// requests 400; a route's admit_head answers from the head before any body
// byte is read; each connection ends within one absolute deadline from its
// accept; at most max_connections at once, idle and trickling ones evicted
// for newcomers (a TLS handshake under way is not idle); at most
// max_connections pieces of handler work queued or running (503 beyond),
// and work of a connection that has ended is dropped unrun. Handlers must be
// thread-safe.
class EndpointServer {
 public:
  using Reply = EndpointReply;
  using Request = EndpointRequest;
  using Route = EndpointRoute;
  using Handler = std::function<Reply()>;
  using RequestHandler = std::function<Reply(const Request&)>;
  // PEM certificate (leaf first, then any chain) and private key.
  struct TlsOptions {
    std::string cert_pem;
    std::string key_pem;
    // When set, asked about once a second for the current PEM texts
    // (certificate, key): when they change and load, new handshakes use them
    // (a rotated Secret); when they do not load, the previous pair stays.
    std::function<Result<std::pair<std::string, std::string>>()> current = nullptr;
  };
  using Limits = EndpointLimits;

  // bind_address: "HOST:PORT", "[IPv6]:PORT", or ":PORT" / "[::]:PORT" (all
  // interfaces, dual-stack; IPv4 only when the host has no IPv6); port 0
  // picks a free one. Routes take GET and HEAD without a body.
  static Result<std::unique_ptr<EndpointServer>> Start(
      const std::string& bind_address, const std::map<std::string, Handler>& routes);
  // Handlers that see the request; HTTPS when `tls` is given.
  static Result<std::unique_ptr<EndpointServer>> Start(const std::string& bind_address,
                                                       std::map<std::string, RequestHandler> routes,
                                                       const std::optional<TlsOptions>& tls);
  // Routes with their own methods and body limits.
  static Result<std::unique_ptr<EndpointServer>> StartRoutes(const std::string& bind_address,
                                                             std::map<std::string, Route> routes,
                                                             const std::optional<TlsOptions>& tls,
                                                             Limits limits = {});
  ~EndpointServer();

  int port() const { return port_; }
  bool tls() const { return tls_; }

 private:
  struct Impl;

  EndpointServer() = default;

  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  bool tls_ = false;
};

}  // namespace kube
