#include "src/http/EndpointServer.h"

#include <civetweb.h>

#include <mutex>

namespace kube {
namespace {

// Enough workers that a few idle or slow clients (which hold a worker until
// the request timeout) cannot starve the kubelet's probes.
constexpr const char* kWorkerThreads = "16";
constexpr const char* kRequestTimeoutMs = "5000";

// civetweb wants "host:port" or "port"; ":8080" means every interface, which
// is "+8080" (IPv4 and IPv6, dual-stack) when civetweb was built with IPv6.
std::string ListeningPorts(const std::string& bind_address, bool dual_stack) {
  if (!bind_address.empty() && bind_address[0] == ':') {
    return (dual_stack ? "+" : "") + bind_address.substr(1);
  }
  return bind_address;
}

mg_context* StartCivetweb(const std::string& ports) {
  const char* options[] = {
      "listening_ports", ports.c_str(),       "num_threads", kWorkerThreads, "request_timeout_ms",
      kRequestTimeoutMs, "enable_keep_alive", "no",          nullptr};
  mg_callbacks callbacks{};
  return mg_start(&callbacks, nullptr, options);
}

void InitLibraryOnce() {
  static std::once_flag once;
  std::call_once(once, [] { mg_init_library(0); });
}

}  // namespace

int EndpointServer::Dispatch(::mg_connection* conn, void* route) {
  const auto* handler = static_cast<const Handler*>(route);
  Reply reply;
  try {
    reply = (*handler)();
  } catch (const std::exception& e) {
    reply = Reply{500, std::string("handler failed: ") + e.what() + "\n"};
  }
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
            reply.status, mg_get_response_code_text(conn, reply.status), reply.content_type.c_str(),
            reply.body.size());
  mg_write(conn, reply.body.data(), reply.body.size());
  return reply.status;
}

Result<std::unique_ptr<EndpointServer>> EndpointServer::Start(
    const std::string& bind_address, std::map<std::string, Handler> routes) {
  InitLibraryOnce();
  std::unique_ptr<EndpointServer> server(new EndpointServer());
  server->routes_ = std::move(routes);
  bool all_interfaces = !bind_address.empty() && bind_address[0] == ':';
  if (all_interfaces && Ipv6Supported()) {
    server->ctx_ = StartCivetweb(ListeningPorts(bind_address, true));
  }
  // No IPv6 in civetweb or on the host (the dual-stack socket failed): IPv4 only.
  if (server->ctx_ == nullptr) server->ctx_ = StartCivetweb(ListeningPorts(bind_address, false));
  if (server->ctx_ == nullptr) {
    return Status(StatusCode::kUnavailable,
                  "cannot listen on " + bind_address + " (address in use or invalid?)");
  }
  for (auto& [path, handler] : server->routes_) {
    mg_set_request_handler(server->ctx_, path.c_str(), &EndpointServer::Dispatch, &handler);
  }
  mg_server_port port{};
  if (mg_get_server_ports(server->ctx_, 1, &port) >= 1) server->port_ = port.port;
  return server;
}

bool EndpointServer::Ipv6Supported() { return mg_check_feature(8) != 0; }

EndpointServer::~EndpointServer() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

}  // namespace kube
