#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kube {

// What an EndpointServer answers.
struct EndpointReply {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain; charset=utf-8";
  // Sent after `body`, in order, straight from the shared buffers: a large
  // cached text (a metrics exposition) is written without being copied.
  // The buffers must not change while the reply is written.
  std::vector<std::shared_ptr<const std::string>> shared_body = {};
  // Extra response headers (name, value), e.g. Allow on a 405.
  std::vector<std::pair<std::string, std::string>> headers = {};

  // Bytes of body and shared_body together (the Content-Length).
  std::size_t BodySize() const;
};

// What a route's handler learns about the request.
struct EndpointRequest {
  std::string method;
  std::string path;           // without the query
  std::string authorization;  // the Authorization header, "" when absent
  std::string content_type;   // the Content-Type header, "" when absent
  std::string body;           // empty unless the route accepts a body
  std::string peer;           // the client's IP address ("10.1.2.3", "fd00::7"), "" unknown
};

// A path prefix's handler, the methods it takes and the largest request body
// it reads. "/metrics" serves "/metrics" and everything under "/metrics/",
// unless the route is `exact`.
struct EndpointRoute {
  std::function<EndpointReply(const EndpointRequest&)> handler;
  // HEAD is answered like GET without the body; list "GET" for both.
  std::vector<std::string> methods = {"GET", "HEAD"};
  std::size_t max_body_bytes = 0;  // 0: a request with a body gets 413
  // Serves its own path only: every path under it is 404 (a caller cannot
  // make each request a new question for an authorizer).
  bool exact = false;
  // When set, asked with the request's head (no body yet) before any body
  // byte is read: a reply refuses the request, nullopt lets it go on. For
  // authentication, so that a caller without the right costs no body's
  // memory and the route's body limit applies only to those admitted. Runs
  // on the handler pool; must be thread-safe.
  std::function<std::optional<EndpointReply>(const EndpointRequest&)> admit_head = nullptr;
};

// Routing and admission of requests, free of sockets: which route a target
// names (404 for none, and for a path with "." or ".." segments, empty
// segments, percent-escapes or backslashes), whether the method and body
// fit it (405 with Allow, 413), and the handler's reply (500 when it throws,
// without the exception's text).
// Thread-safe once built.
class EndpointRouter {
 public:
  explicit EndpointRouter(std::map<std::string, EndpointRoute> routes);

  // The route serving `path`, or null (unknown or unsafe path).
  const EndpointRoute* Find(std::string_view path) const;
  // A rejection for a request head (400, 404, 405, 413), or nullopt when the
  // request may go on to `route` (set then) and its body of at most
  // route->max_body_bytes.
  std::optional<EndpointReply> Admit(std::string_view method, std::string_view target,
                                     bool has_body, const EndpointRoute*& route) const;
  // The route's reply; 500 when its handler throws.
  static EndpointReply Serve(const EndpointRoute& route, const EndpointRequest& request);
  // The route's head admission (admit_head): a refusal, or nullopt; 500
  // when it throws.
  static std::optional<EndpointReply> AdmitHead(const EndpointRoute& route,
                                                const EndpointRequest& head);

  // The whole request side without a socket: raw bytes (one request, as a
  // client sent them) through the parser and its limits to the reply the
  // server would send. Input that ends before a complete request gets 400.
  EndpointReply ServeRaw(std::string_view bytes) const;

  static EndpointReply Error(int status, std::string body);
  // Status line and headers through the blank line, with the length of the
  // whole body (also for HEAD); a status outside 100..599 goes out as 500.
  static std::string ResponseHead(const EndpointReply& reply);
  static const char* ReasonPhrase(int status);

 private:
  std::map<std::string, EndpointRoute> routes_;
};

}  // namespace kube
