#include "src/http/BeastTransport.h"

#include <algorithm>
#include <optional>

#include "src/http/BeastConnection.h"
#include "src/http/RequestHeaders.h"
#include "src/http/ResponseDecoder.h"
#include "src/http/TlsContextCache.h"

namespace kube {
namespace {

// Idle connections kept for reuse; more concurrent requests than this still
// work, their connections are just closed afterwards.
constexpr size_t kMaxIdleConnections = 8;
// client-go's IdleConnTimeout: a pooled connection older than this is closed.
constexpr std::chrono::seconds kMaxIdle{90};
// One TLS record's worth; every open watch holds one for its lifetime.
constexpr size_t kReadBuffer = 16 * 1024;

bool HasLineBreak(const std::string& text) {
  return text.find_first_of("\r\n") != std::string::npos;
}

// Go's net/http replays these after a kept-alive connection failed.
bool IsIdempotent(const std::string& method) {
  return method == "GET" || method == "HEAD" || method == "OPTIONS" || method == "TRACE";
}

}  // namespace

struct BeastTransport::Exchange {
  StreamHandler* handler = nullptr;  // streaming when set
  HttpResponse response;
  std::optional<Clock::time_point> deadline;
  std::optional<std::chrono::milliseconds> idle_timeout;
  std::chrono::milliseconds timeout_for_message{0};
  Clock::time_point last_activity = Clock::now();
  bool received_any = false;
  size_t written = 0;
  bool reusable = false;

  Clock::time_point WaitLimit() const {
    auto limit = Clock::time_point::max();
    if (deadline) limit = *deadline;
    if (idle_timeout) limit = std::min(limit, last_activity + *idle_timeout);
    return limit;
  }
};

BeastTransport::BeastTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls)
    : config_(std::move(config)),
      tls_(std::move(tls)),
      contexts_(std::make_unique<TlsContextCache>()) {
  // HttpTransport::CheckedTls admitted only http:// and https:// servers.
  server_ = ServerAddress::Parse(config_.server);
}

BeastTransport::~BeastTransport() = default;

Result<HttpResponse> BeastTransport::Send(const HttpRequest& request) {
  CancelFlag never;
  return Send(request, never);
}

Result<HttpResponse> BeastTransport::Send(const HttpRequest& request, CancelFlag& cancel) {
  Exchange exchange;
  exchange.deadline = Clock::now() + config_.request_timeout;
  exchange.timeout_for_message = config_.request_timeout;
  Status status = Perform(request, exchange, cancel);
  if (!status.ok()) return status;
  return std::move(exchange.response);
}

Status BeastTransport::Stream(const HttpRequest& request, StreamHandler& handler,
                              CancelFlag& cancel, std::chrono::seconds idle_timeout) {
  Exchange exchange;
  exchange.handler = &handler;
  exchange.idle_timeout = idle_timeout;
  exchange.timeout_for_message = idle_timeout;
  return Perform(request, exchange, cancel);
}

Result<std::string> BeastTransport::Serialize(const HttpRequest& request) const {
  auto headers = RequestHeaders::For(config_, request);
  if (!headers.ok()) return headers.status();
  if (HasLineBreak(request.method) || HasLineBreak(request.path) ||
      request.method.find(' ') != std::string::npos) {
    return Status(StatusCode::kInvalidArgument, "request line contains a line break or space");
  }
  std::string wire = request.method + " " + server_.prefix + request.path + " HTTP/1.1\r\n";
  wire += "Host: " + server_.authority + "\r\n";
  for (const auto& [name, value] : *headers) {
    if (HasLineBreak(name) || HasLineBreak(value)) {
      return Status(StatusCode::kInvalidArgument,
                    "header " + name.substr(0, 64) + " contains a line break");
    }
    wire += name + ": " + value + "\r\n";
  }
  bool has_body = !request.body.empty() || request.method == "POST" || request.method == "PUT" ||
                  request.method == "PATCH";
  if (has_body) wire += "Content-Length: " + std::to_string(request.body.size()) + "\r\n";
  wire += "\r\n";
  wire += request.body;
  return wire;
}

Status BeastTransport::Perform(const HttpRequest& request, Exchange& exchange, CancelFlag& cancel) {
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
  auto wire = Serialize(request);
  if (!wire.ok()) return wire.status();
  Material material = tls_->Current();
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<BeastConnection> connection;
    if (exchange.handler == nullptr && attempt == 0) connection = TakeIdle(material);
    bool reused = connection != nullptr;
    if (!reused) {
      auto opened = Connect(material, exchange, cancel);
      if (!opened.ok()) return Failure(opened.status(), exchange);
      connection = std::move(*opened);
    }
    exchange.received_any = false;
    Status status = Attempt(*connection, *wire, request, exchange, cancel);
    // A kept-alive connection the server closed meanwhile fails before any
    // response byte. The request goes once more only if it cannot have
    // reached the server, or doing it twice is harmless.
    bool replayable = exchange.written == 0 || IsIdempotent(request.method);
    if (!status.ok() && reused && !exchange.received_any && replayable &&
        status.code() == StatusCode::kUnavailable) {
      continue;
    }
    if (!status.ok()) return Failure(status, exchange);
    if (exchange.reusable) ReturnIdle(std::move(connection), material);
    return Status::Ok();
  }
}

Result<std::unique_ptr<BeastConnection>> BeastTransport::Connect(const Material& material,
                                                                 Exchange& exchange,
                                                                 CancelFlag& cancel) {
  BeastConnection::Target target;
  target.host = server_.host;
  target.port = server_.port;
  if (server_.https) {
    KUBE_ASSIGN_OR_RETURN(target.tls, contexts_->For(material));
    target.tls_name = config_.tls_server_name.empty() ? server_.host : config_.tls_server_name;
    target.verify = !config_.insecure_skip_tls_verify;
  }
  exchange.last_activity = Clock::now();
  auto deadline = std::min(exchange.WaitLimit(), Clock::now() + config_.request_timeout);
  return BeastConnection::Open(target, deadline, cancel);
}

Status BeastTransport::Attempt(BeastConnection& connection, const std::string& wire,
                               const HttpRequest& request, Exchange& exchange,
                               CancelFlag& cancel) const {
  exchange.written = 0;
  KUBE_RETURN_IF_ERROR(connection.Write(wire, exchange.WaitLimit(), cancel, &exchange.written));
  exchange.response = HttpResponse();
  ResponseDecoder::Limits limits;
  limits.max_header_bytes = config_.max_response_header_bytes;
  if (exchange.handler == nullptr) limits.max_body_bytes = config_.max_response_body_bytes;
  auto on_head = [&](const HttpResponse& head) {
    exchange.response.status = head.status;
    exchange.response.headers = head.headers;
    if (exchange.handler != nullptr) exchange.handler->OnHead(exchange.response);
    return Status::Ok();
  };
  auto on_body = [&](std::string_view bytes) {
    if (exchange.handler != nullptr) return exchange.handler->OnData(bytes);
    exchange.response.body.append(bytes);
    return true;
  };
  ResponseDecoder decoder(limits, request.method == "HEAD", on_head, on_body);
  std::string buffer(kReadBuffer, '\0');
  while (!decoder.complete() && !decoder.stopped()) {
    auto got = connection.Read(buffer.data(), buffer.size(), exchange.WaitLimit(), cancel);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      KUBE_RETURN_IF_ERROR(decoder.Close());
      break;
    }
    exchange.received_any = true;
    exchange.last_activity = Clock::now();
    KUBE_RETURN_IF_ERROR(decoder.Feed(std::string_view(buffer.data(), *got)));
  }
  exchange.reusable = decoder.reusable() && exchange.handler == nullptr;
  return Status::Ok();
}

Status BeastTransport::Failure(const Status& status, const Exchange& exchange) const {
  if (status.code() == StatusCode::kCancelled) return status;
  std::string prefix = "request to " + config_.server + " failed: ";
  if (status.code() == StatusCode::kTimeout) {
    std::string limit = exchange.handler != nullptr ? "idle timeout " : "request timeout ";
    return Status(StatusCode::kTimeout, prefix + "timed out (" + limit +
                                            std::to_string(exchange.timeout_for_message.count()) +
                                            " ms): " + status.message());
  }
  std::string hint;
  if (status.message().find("Connection refused") != std::string::npos) {
    hint = " (connection refused: is the API server running at that address?)";
  }
  return Status(status.code(), prefix + status.message() + hint);
}

std::unique_ptr<BeastConnection> BeastTransport::TakeIdle(const Material& material) {
  std::vector<std::pair<Material, std::unique_ptr<BeastConnection>>> closing;  // closed unlocked
  std::lock_guard lock(mu_);
  auto now = Clock::now();
  std::vector<std::pair<Material, std::unique_ptr<BeastConnection>>> kept;
  for (auto& entry : idle_) {
    // After a certificate rotation, connections made with the old pair go.
    bool fresh = entry.first == material && now - entry.second->idle_since() < kMaxIdle;
    (fresh ? kept : closing).push_back(std::move(entry));
  }
  idle_.swap(kept);
  while (!idle_.empty()) {
    auto entry = std::move(idle_.back());
    idle_.pop_back();
    if (entry.second->LooksIdle()) return std::move(entry.second);
    closing.push_back(std::move(entry));
  }
  return nullptr;
}

void BeastTransport::ReturnIdle(std::unique_ptr<BeastConnection> connection,
                                const Material& material) {
  connection->MarkIdle();
  std::lock_guard lock(mu_);
  if (idle_.size() < kMaxIdleConnections) idle_.emplace_back(material, std::move(connection));
}

}  // namespace kube
