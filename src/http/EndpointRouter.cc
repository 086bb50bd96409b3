#include "src/http/EndpointRouter.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

#include "src/base/LogThrottle.h"
#include "src/base/QuoteForMessage.h"
#include "src/http/EndpointExchange.h"

namespace kube {
namespace {

LogThrottle& HandlerFailures() {
  static LogThrottle throttle(std::chrono::seconds(10));
  return throttle;
}

// Routes are plain prefixes: a path that a file server would resolve
// differently ("/metrics/../x", "/metrics/%2e%2e", "//metrics", "/a\b")
// names none of them.
bool IsSafePath(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  if (path.find_first_of("%\\") != std::string_view::npos) return false;
  std::size_t begin = 1;
  while (begin <= path.size()) {
    std::size_t end = std::min(path.find('/', begin), path.size());
    std::string_view segment = path.substr(begin, end - begin);
    bool last = end == path.size();
    if (segment == "." || segment == ".." || (segment.empty() && !last)) return false;
    begin = end + 1;
  }
  return true;
}

bool Takes(const EndpointRoute& route, std::string_view method) {
  auto listed = [&](std::string_view m) {
    return std::find(route.methods.begin(), route.methods.end(), m) != route.methods.end();
  };
  return listed(method) || (method == "HEAD" && listed("GET"));
}

std::string AllowHeader(const EndpointRoute& route) {
  std::vector<std::string> methods = route.methods;
  bool get = std::find(methods.begin(), methods.end(), "GET") != methods.end();
  if (get && std::find(methods.begin(), methods.end(), "HEAD") == methods.end()) {
    methods.push_back("HEAD");
  }
  std::string allow;
  for (const auto& method : methods) allow += (allow.empty() ? "" : ", ") + method;
  return allow;
}

// What a failing handler threw is for the log, not for the client (it may
// carry the client's own bytes back, or internals).
EndpointReply HandlerFailed(std::string_view what) {
  if (auto suppressed = HandlerFailures().Admit()) {
    spdlog::error("endpoint handler failed: {} ({} more not logged)", QuoteForMessage(what, 256),
                  *suppressed);
  }
  return EndpointRouter::Error(500, "internal error\n");
}

// Header text from a handler cannot split the response.
std::string HeaderValue(std::string_view value) {
  std::string clean(value);
  clean.erase(std::remove_if(clean.begin(), clean.end(),
                             [](char c) { return c == '\r' || c == '\n' || c == '\0'; }),
              clean.end());
  return clean;
}

}  // namespace

std::size_t EndpointReply::BodySize() const {
  std::size_t size = body.size();
  for (const auto& text : shared_body) size += text ? text->size() : 0;
  return size;
}

EndpointRouter::EndpointRouter(std::map<std::string, EndpointRoute> routes)
    : routes_(std::move(routes)) {}

const EndpointRoute* EndpointRouter::Find(std::string_view path) const {
  if (!IsSafePath(path)) return nullptr;
  for (const auto& [prefix, route] : routes_) {
    if (path.substr(0, prefix.size()) != prefix) continue;
    if (path.size() == prefix.size()) return &route;
    if (!route.exact && path[prefix.size()] == '/') return &route;
  }
  return nullptr;
}

std::optional<EndpointReply> EndpointRouter::Admit(std::string_view method, std::string_view target,
                                                   bool has_body,
                                                   const EndpointRoute*& route) const {
  route = nullptr;
  if (target.empty() || target.front() != '/') {
    return Error(400, "the request target must be a path\n");
  }
  const EndpointRoute* found = Find(target.substr(0, target.find('?')));
  if (found == nullptr) return Error(404, "not found\n");
  if (!Takes(*found, method)) {
    EndpointReply reply = Error(405, "method not allowed\n");
    reply.headers.emplace_back("Allow", AllowHeader(*found));
    return reply;
  }
  if (has_body && found->max_body_bytes == 0) {
    return Error(413, "this endpoint takes no request body\n");
  }
  route = found;
  return std::nullopt;
}

EndpointReply EndpointRouter::Serve(const EndpointRoute& route, const EndpointRequest& request) {
  try {
    if (!route.handler) return Error(500, "no handler\n");
    EndpointReply reply = route.handler(request);
    if (reply.status < 100 || reply.status > 599) reply.status = 500;
    return reply;
  } catch (const std::exception& e) {
    return HandlerFailed(e.what());
  } catch (...) {
    return HandlerFailed("unknown exception");
  }
}

std::optional<EndpointReply> EndpointRouter::AdmitHead(const EndpointRoute& route,
                                                       const EndpointRequest& head) {
  try {
    if (!route.admit_head) return std::nullopt;
    auto refusal = route.admit_head(head);
    if (refusal && (refusal->status < 100 || refusal->status > 599)) refusal->status = 500;
    return refusal;
  } catch (const std::exception& e) {
    return HandlerFailed(e.what());
  } catch (...) {
    return HandlerFailed("unknown exception");
  }
}

EndpointReply EndpointRouter::ServeRaw(std::string_view bytes) const {
  EndpointExchange exchange(*this);
  auto step = exchange.Feed(bytes);
  if (step == EndpointExchange::Step::kAdmitHead) {
    if (auto refusal = AdmitHead(*exchange.route(), exchange.request())) return *refusal;
    step = exchange.Admitted();
  }
  if (step == EndpointExchange::Step::kNeedMore) step = exchange.FeedEnd();
  if (step == EndpointExchange::Step::kReady) return Serve(*exchange.route(), exchange.request());
  return exchange.rejection();
}

EndpointReply EndpointRouter::Error(int status, std::string body) {
  EndpointReply reply;
  reply.status = status;
  reply.body = std::move(body);
  return reply;
}

std::string EndpointRouter::ResponseHead(const EndpointReply& reply) {
  int status = reply.status < 100 || reply.status > 599 ? 500 : reply.status;
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + ReasonPhrase(status) +
                     "\r\nContent-Type: " + HeaderValue(reply.content_type) +
                     "\r\nContent-Length: " + std::to_string(reply.BodySize()) +
                     "\r\nCache-Control: no-store\r\nConnection: close\r\n";
  for (const auto& [name, value] : reply.headers) {
    head += HeaderValue(name) + ": " + HeaderValue(value) + "\r\n";
  }
  return head + "\r\n";
}

const char* EndpointRouter::ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Payload Too Large";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Entity";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

}  // namespace kube
