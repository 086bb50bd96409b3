#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "src/base/Result.h"

struct mg_context;
struct mg_connection;

namespace kube {

// A small HTTP server for probes (/healthz, /readyz) and /metrics, over
// civetweb (already a dependency of prometheus-cpp). Handlers run on the
// server's threads and must be thread-safe.
class EndpointServer {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    std::string content_type = "text/plain; charset=utf-8";
  };
  using Handler = std::function<Reply()>;

  // bind_address: "HOST:PORT" or ":PORT" (all interfaces: IPv4, and IPv6 too
  // when Ipv6Supported()); port 0 picks a free one.
  static Result<std::unique_ptr<EndpointServer>> Start(const std::string& bind_address,
                                                       std::map<std::string, Handler> routes);
  ~EndpointServer();

  int port() const { return port_; }
  // Whether civetweb was built with IPv6 (Debian 12's is not).
  static bool Ipv6Supported();

 private:
  EndpointServer() = default;
  static int Dispatch(::mg_connection* conn, void* route);

  mg_context* ctx_ = nullptr;
  std::map<std::string, Handler> routes_;
  int port_ = 0;
};

}  // namespace kube
