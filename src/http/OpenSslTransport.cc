#include "src/http/OpenSslTransport.h"

#include <openssl/err.h>
#include <signal.h>

#include <algorithm>
#include <optional>

#include "src/http/RequestHeaders.h"
#include "src/http/ResponseParser.h"

namespace kube {
namespace {

// Idle connections kept for reuse; more concurrent requests than this still
// work, their connections are just closed afterwards.
constexpr size_t kMaxIdleConnections = 8;
// One TLS record's worth: SSL_read never returns more at once, and every open
// watch holds one of these for its lifetime.
constexpr size_t kReadBuffer = 16 * 1024;

// OpenSSL writes to its sockets with write(): a connection the server reset
// would raise SIGPIPE and end the process. Ignored unless the program
// installed a handler of its own.
void IgnoreSigpipeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      signal(SIGPIPE, SIG_IGN);
    }
  });
}

bool HasLineBreak(const std::string& text) {
  return text.find_first_of("\r\n") != std::string::npos;
}

}  // namespace

struct OpenSslTransport::Exchange {
  StreamHandler* handler = nullptr;  // streaming when set
  HttpResponse response;
  bool body_too_large = false;
  std::optional<Clock::time_point> deadline;
  std::optional<std::chrono::milliseconds> idle_timeout;
  std::chrono::milliseconds timeout_for_message{0};
  Clock::time_point last_activity = Clock::now();
  bool received_any = false;
  bool reusable = false;

  Clock::time_point WaitLimit() const {
    auto limit = Clock::time_point::max();
    if (deadline) limit = *deadline;
    if (idle_timeout) limit = std::min(limit, last_activity + *idle_timeout);
    return limit;
  }
};

OpenSslTransport::OpenSslTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls)
    : config_(std::move(config)), tls_(std::move(tls)) {
  IgnoreSigpipeOnce();
  // HttpTransport::CheckedTls admitted only http:// and https:// servers.
  server_ = ServerAddress::Parse(config_.server);
}

OpenSslTransport::~OpenSslTransport() = default;

Result<HttpResponse> OpenSslTransport::Send(const HttpRequest& request) {
  CancelFlag never;
  return Send(request, never);
}

Result<HttpResponse> OpenSslTransport::Send(const HttpRequest& request, CancelFlag& cancel) {
  Exchange exchange;
  exchange.deadline = Clock::now() + config_.request_timeout;
  exchange.timeout_for_message = config_.request_timeout;
  Status status = Perform(request, exchange, cancel);
  if (!status.ok()) return status;
  return std::move(exchange.response);
}

Status OpenSslTransport::Stream(const HttpRequest& request, StreamHandler& handler,
                                CancelFlag& cancel, std::chrono::seconds idle_timeout) {
  Exchange exchange;
  exchange.handler = &handler;
  exchange.idle_timeout = idle_timeout;
  exchange.timeout_for_message = idle_timeout;
  return Perform(request, exchange, cancel);
}

Result<std::string> OpenSslTransport::Serialize(const HttpRequest& request) const {
  auto headers = RequestHeaders::For(config_, request);
  if (!headers.ok()) return headers.status();
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

Status OpenSslTransport::Perform(const HttpRequest& request, Exchange& exchange,
                                 CancelFlag& cancel) {
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
  auto wire = Serialize(request);
  if (!wire.ok()) return wire.status();
  CancelWake wake(cancel);
  Material material = tls_->Current();
  // A kept-alive connection the server has closed meanwhile fails before any
  // response byte: that request goes once more, on a new connection.
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<HttpConnection> connection;
    if (exchange.handler == nullptr && attempt == 0) connection = TakeIdle(material);
    bool reused = connection != nullptr;
    if (!reused) {
      auto opened = Connect(material, exchange, wake);
      if (!opened.ok()) return Failure(opened.status(), exchange);
      connection = std::move(*opened);
    }
    exchange.received_any = false;
    Status status = Attempt(*connection, *wire, request, exchange, wake);
    if (!status.ok() && reused && !exchange.received_any &&
        status.code() == StatusCode::kUnavailable) {
      continue;
    }
    if (!status.ok()) return Failure(status, exchange);
    if (exchange.reusable) ReturnIdle(std::move(connection), material);
    return Status::Ok();
  }
}

Result<std::unique_ptr<HttpConnection>> OpenSslTransport::Connect(const Material& material,
                                                                  Exchange& exchange,
                                                                  const CancelWake& wake) {
  HttpConnection::Target target;
  target.host = server_.host;
  target.port = server_.port;
  if (server_.https) {
    KUBE_ASSIGN_OR_RETURN(target.tls, ContextFor(material));
    target.tls_name = config_.tls_server_name.empty() ? server_.host : config_.tls_server_name;
    target.verify = !config_.insecure_skip_tls_verify;
  }
  exchange.last_activity = Clock::now();
  auto deadline = std::min(exchange.WaitLimit(), Clock::now() + config_.request_timeout);
  return HttpConnection::Open(target, deadline, wake);
}

Status OpenSslTransport::Attempt(HttpConnection& connection, const std::string& wire,
                                 const HttpRequest& request, Exchange& exchange,
                                 const CancelWake& wake) const {
  KUBE_RETURN_IF_ERROR(connection.WriteAll(wire, exchange.WaitLimit(), wake));
  exchange.response = HttpResponse();
  ResponseParser parser(config_.max_response_header_bytes, request.method == "HEAD");
  size_t max_body = config_.max_response_body_bytes;
  auto check = [&](const ResponseParser& p) -> Status {
    exchange.response.status = p.head().status;
    exchange.response.headers = p.head().headers;
    if (exchange.handler != nullptr) {
      exchange.handler->OnHead(exchange.response);
      return Status::Ok();
    }
    if (p.content_length() && *p.content_length() > max_body) {
      exchange.body_too_large = true;
      return Status(StatusCode::kTooLarge, "response body exceeds " + std::to_string(max_body) +
                                               " bytes (RestConfig::max_response_body_bytes)");
    }
    return Status::Ok();
  };
  auto sink = [&](std::string_view bytes) {
    if (exchange.handler != nullptr) return exchange.handler->OnData(bytes);
    if (exchange.response.body.size() + bytes.size() > max_body) {
      exchange.body_too_large = true;
      return false;
    }
    exchange.response.body.append(bytes);
    return true;
  };
  std::string buffer(kReadBuffer, '\0');
  while (!parser.complete() && !parser.stopped()) {
    auto got = connection.Read(buffer.data(), buffer.size(), exchange.WaitLimit(), wake);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      KUBE_RETURN_IF_ERROR(parser.Close());
      break;
    }
    exchange.received_any = true;
    exchange.last_activity = Clock::now();
    KUBE_RETURN_IF_ERROR(parser.Feed(std::string_view(buffer.data(), *got), check, sink));
  }
  if (exchange.body_too_large) {
    return Status(StatusCode::kTooLarge, "response body exceeds " + std::to_string(max_body) +
                                             " bytes (RestConfig::max_response_body_bytes)");
  }
  exchange.reusable = parser.reusable() && exchange.handler == nullptr;
  return Status::Ok();
}

Status OpenSslTransport::Failure(const Status& status, const Exchange& exchange) const {
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

Result<SSL_CTX*> OpenSslTransport::ContextFor(const Material& material) {
  std::lock_guard lock(mu_);
  if (context_ != nullptr && context_material_ == material) return context_.get();
  std::unique_ptr<SSL_CTX, ContextDeleter> context(SSL_CTX_new(TLS_client_method()));
  if (context == nullptr) {
    ERR_clear_error();
    return Status(StatusCode::kInternal, "TLS: cannot create a context");
  }
  SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);  // client-go's floor
  material->InstallInto(context.get());
  // Sessions hold a reference to their context: replacing it here (after a
  // certificate rotation) leaves established connections as they are.
  context_ = std::move(context);
  context_material_ = material;
  return context_.get();
}

std::unique_ptr<HttpConnection> OpenSslTransport::TakeIdle(const Material& material) {
  std::vector<std::pair<Material, std::unique_ptr<HttpConnection>>> stale;  // closed unlocked
  std::lock_guard lock(mu_);
  if (!idle_.empty() && idle_.back().first == material) {
    auto connection = std::move(idle_.back().second);
    idle_.pop_back();
    return connection;
  }
  // After a certificate rotation, connections made with the old pair go.
  stale.swap(idle_);
  return nullptr;
}

void OpenSslTransport::ReturnIdle(std::unique_ptr<HttpConnection> connection,
                                  const Material& material) {
  std::lock_guard lock(mu_);
  if (idle_.size() < kMaxIdleConnections) idle_.emplace_back(material, std::move(connection));
}

}  // namespace kube
