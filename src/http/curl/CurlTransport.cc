#include "src/http/curl/CurlTransport.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>

#include "src/base/AsciiText.h"
#include "src/http/RequestHeaders.h"
#include "src/http/ServerAddress.h"

namespace kube {
namespace {

using Clock = std::chrono::steady_clock;

// Idle sessions kept for reuse; more concurrent requests than this still
// work, their connections are just closed afterwards.
constexpr size_t kMaxIdleSessions = 8;
// Upper bound of one wait in the transfer loop; cancellation wakes it earlier.
constexpr std::chrono::milliseconds kMaxPoll{500};

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

struct CurlTransport::Session {
  CURLM* multi = curl_multi_init();
  CURL* easy = curl_easy_init();
  std::shared_ptr<const TlsMaterial> tls;  // the material its connections were made with

  ~Session() {
    if (easy != nullptr) curl_easy_cleanup(easy);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }
};

struct CurlTransport::Transfer {
  std::shared_ptr<const TlsMaterial> tls;
  HttpResponse response;
  StreamHandler* handler = nullptr;  // streaming when set
  bool head_delivered = false;
  bool handler_stopped = false;
  size_t header_bytes = 0;
  size_t max_header_bytes = 0;
  size_t max_body_bytes = 0;  // 0: unlimited (streams hand bytes on)
  std::optional<Clock::time_point> deadline;
  std::optional<std::chrono::milliseconds> idle_timeout;
  std::chrono::milliseconds timeout_for_message{0};
  Clock::time_point last_activity = Clock::now();
  std::string failure;  // why a callback aborted the transfer
  bool body_too_large = false;
  curl_slist* header_list = nullptr;
  curl_slist* connect_to = nullptr;
  char error[CURL_ERROR_SIZE] = {};

  ~Transfer() {
    curl_slist_free_all(header_list);
    curl_slist_free_all(connect_to);
  }

  void DeliverHead() {
    if (handler == nullptr || head_delivered) return;
    head_delivered = true;
    handler->OnHead(response);
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* self) {
    auto* t = static_cast<Transfer*>(self);
    size_t len = size * count;
    t->last_activity = Clock::now();
    t->header_bytes += len;
    if (t->header_bytes > t->max_header_bytes) {
      t->failure = "response headers exceed " + std::to_string(t->max_header_bytes) +
                   " bytes (RestConfig::max_response_header_bytes)";
      return 0;
    }
    std::string_view line = AsciiText::Trim(std::string_view(data, len));
    if (line.rfind("HTTP/", 0) == 0) {  // a new status line (after 1xx) starts a new head
      t->response.headers.clear();
      size_t space = line.find(' ');
      t->response.status = space == std::string_view::npos
                               ? 0
                               : std::atoi(std::string(line.substr(space + 1, 3)).c_str());
    } else if (line.empty()) {
      if (t->response.status >= 200) t->DeliverHead();
    } else if (size_t colon = line.find(':'); colon != std::string_view::npos) {
      std::string name = AsciiText::Lower(AsciiText::Trim(line.substr(0, colon)));
      std::string value(AsciiText::Trim(line.substr(colon + 1)));
      auto [it, inserted] = t->response.headers.emplace(name, value);
      if (!inserted) it->second += ", " + value;
    }
    return len;
  }

  static size_t OnBody(char* data, size_t size, size_t count, void* self) {
    auto* t = static_cast<Transfer*>(self);
    size_t len = size * count;
    t->last_activity = Clock::now();
    if (t->handler != nullptr) {
      t->DeliverHead();
      if (t->handler->OnData(std::string_view(data, len))) return len;
      t->handler_stopped = true;
      return 0;
    }
    if (t->response.body.size() + len > t->max_body_bytes) {
      t->body_too_large = true;
      t->failure = "response body exceeds " + std::to_string(t->max_body_bytes) +
                   " bytes (RestConfig::max_response_body_bytes)";
      return 0;
    }
    t->response.body.append(data, len);
    return len;
  }

  // The URL to request. With tls-server-name it names that host, and
  // CONNECT_TO sends the connection to the configured address: the name is
  // then used for SNI and certificate verification, as in client-go.
  std::string Url(const RestConfig& config, const HttpRequest& request) {
    ServerAddress server = ServerAddress::Parse(config.server);
    if (config.tls_server_name.empty() || !server.https) {
      return config.server + request.path;
    }
    std::string name_port = config.tls_server_name + ":" + server.port;
    header_list =
        curl_slist_append(header_list, ("Host: " + server.UrlHost() + ":" + server.port).c_str());
    connect_to = curl_slist_append(
        nullptr, (name_port + ":" + server.UrlHost() + ":" + server.port).c_str());
    return "https://" + name_port + server.prefix + request.path;
  }

  static CURLcode OnSslContext(CURL*, void* ssl_ctx, void* self) {
    static_cast<Transfer*>(self)->tls->InstallInto(static_cast<SSL_CTX*>(ssl_ctx));
    return CURLE_OK;
  }
};

CurlTransport::CurlTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls)
    : config_(std::move(config)), tls_(std::move(tls)) {
  GlobalInitOnce();
}

CurlTransport::~CurlTransport() = default;

Result<HttpResponse> CurlTransport::Send(const HttpRequest& request) {
  CancelFlag never;
  return Send(request, never);
}

Result<HttpResponse> CurlTransport::Send(const HttpRequest& request, CancelFlag& cancel) {
  Transfer transfer;
  transfer.max_body_bytes = config_.max_response_body_bytes;
  transfer.deadline = Clock::now() + config_.request_timeout;
  transfer.timeout_for_message = config_.request_timeout;
  Status status = Perform(request, transfer, cancel);
  if (!status.ok()) return status;
  return std::move(transfer.response);
}

Status CurlTransport::Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                             std::chrono::seconds idle_timeout) {
  Transfer transfer;
  transfer.handler = &handler;
  transfer.idle_timeout = idle_timeout;
  transfer.timeout_for_message = idle_timeout;
  Status status = Perform(request, transfer, cancel);
  if (status.ok()) transfer.DeliverHead();  // an empty body still has a head
  return status;
}

Status CurlTransport::Perform(const HttpRequest& request, Transfer& transfer, CancelFlag& cancel) {
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
  transfer.max_header_bytes = config_.max_response_header_bytes;
  transfer.tls = tls_->Current();
  auto session = TakeSession(transfer.tls);
  if (session->multi == nullptr || session->easy == nullptr) {
    return Status(StatusCode::kInternal, "cannot initialize libcurl");
  }
  Status status = Configure(*session, request, transfer);
  if (status.ok()) status = Run(*session, transfer, cancel);
  // A failed transfer's connection is already closed by libcurl; the
  // session itself stays usable.
  ReturnSession(std::move(session));
  return status;
}

Status CurlTransport::Configure(Session& s, const HttpRequest& request, Transfer& t) const {
  auto headers = RequestHeaders::For(config_, request);
  if (!headers.ok()) return headers.status();
  CURL* e = s.easy;
  curl_easy_reset(e);
  bool has_content_type = false;
  for (const auto& [name, value] : *headers) {
    has_content_type |= AsciiText::Lower(name) == "content-type";
    t.header_list = curl_slist_append(t.header_list, (name + ": ").append(value).c_str());
  }
  t.header_list = curl_slist_append(t.header_list, "Expect:");  // no 100-continue round trip
  curl_easy_setopt(e, CURLOPT_URL, t.Url(config_, request).c_str());
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  // Like the cpprest transport: no *_proxy from the environment.
  curl_easy_setopt(e, CURLOPT_PROXY, "");
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::OnHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::OnBody);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
  SetLimits(e, t);
  SetTls(e, t);
  SetMethod(e, request, t, has_content_type);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.header_list);
  return Status::Ok();
}

void CurlTransport::SetLimits(void* easy, const Transfer& t) const {
  CURL* e = easy;
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(config_.request_timeout.count()));
  if (t.handler == nullptr) {
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(config_.request_timeout.count()));
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(config_.max_response_body_bytes));
  } else {
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    // A watch's connection is closed when it ends rather than pooled, as before.
    curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
  }
}

void CurlTransport::SetTls(void* easy, Transfer& t) const {
  CURL* e = easy;
  bool verify = !config_.insecure_skip_tls_verify;
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, verify ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, verify ? 2L : 0L);
  // Trust is TlsMaterial::InstallInto's alone. libcurl would otherwise load
  // its own CA bundle into the store InstallInto installed, after it did: the
  // configured CA would not be the only one trusted, and each new connection
  // would parse some 140 system certificates (a quarter of the CPU of a
  // 70,000-object sync).
  curl_easy_setopt(e, CURLOPT_CAINFO, static_cast<char*>(nullptr));
  curl_easy_setopt(e, CURLOPT_CAPATH, static_cast<char*>(nullptr));
  curl_easy_setopt(e, CURLOPT_SSL_CTX_FUNCTION, &Transfer::OnSslContext);
  curl_easy_setopt(e, CURLOPT_SSL_CTX_DATA, &t);
  if (t.connect_to != nullptr) curl_easy_setopt(e, CURLOPT_CONNECT_TO, t.connect_to);
}

void CurlTransport::SetMethod(void* easy, const HttpRequest& request, Transfer& t,
                              bool has_content_type) const {
  CURL* e = easy;
  if (request.method == "GET") {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    return;
  }
  if (request.method == "HEAD") {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
    return;
  }
  curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.body.empty() && request.method == "DELETE") return;
  // POSTFIELDS does not copy: `request` outlives the transfer.
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, request.body.data());
  // Otherwise libcurl labels the body as a form.
  if (!has_content_type) t.header_list = curl_slist_append(t.header_list, "Content-Type:");
}

Status CurlTransport::Run(Session& s, Transfer& t, CancelFlag& cancel) const {
  curl_multi_add_handle(s.multi, s.easy);
  cancel.SetHook([multi = s.multi] { curl_multi_wakeup(multi); });
  struct ClearHook {
    CancelFlag& flag;
    ~ClearHook() { flag.SetHook(nullptr); }
  } clear_hook{cancel};
  Status outcome = Status::Ok();
  while (true) {
    int running = 0;
    CURLMcode mc = curl_multi_perform(s.multi, &running);
    if (mc != CURLM_OK) {
      outcome = Status(StatusCode::kInternal, std::string("libcurl: ") + curl_multi_strerror(mc));
      break;
    }
    if (running == 0) {
      int pending = 0;
      CURLMsg* msg = curl_multi_info_read(s.multi, &pending);
      CURLcode code = msg != nullptr && msg->msg == CURLMSG_DONE ? msg->data.result : CURLE_OK;
      if (code != CURLE_OK) outcome = Failure(code, t);
      break;
    }
    if (cancel.cancelled()) {
      outcome = Status(StatusCode::kCancelled, "request cancelled");
      break;
    }
    auto now = Clock::now();
    auto wake = now + kMaxPoll;
    if (t.deadline) wake = std::min(wake, *t.deadline);
    if (t.idle_timeout) wake = std::min(wake, t.last_activity + *t.idle_timeout);
    if (now >= wake) {
      outcome = Failure(CURLE_OPERATION_TIMEDOUT, t);
      break;
    }
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(wake - now);
    curl_multi_poll(s.multi, nullptr, 0, static_cast<int>(wait.count()), nullptr);
  }
  // Removing an unfinished transfer closes its connection: nothing is replayed.
  curl_multi_remove_handle(s.multi, s.easy);
  return outcome;
}

Status CurlTransport::Failure(int curl_code, const Transfer& t) const {
  auto code = static_cast<CURLcode>(curl_code);
  if (t.handler_stopped) return Status::Ok();
  std::string prefix = "request to " + config_.server + " failed: ";
  if (t.body_too_large) return Status(StatusCode::kTooLarge, prefix + t.failure);
  if (!t.failure.empty()) return Status(StatusCode::kUnavailable, prefix + t.failure);
  if (code == CURLE_FILESIZE_EXCEEDED) {
    return Status(StatusCode::kTooLarge, prefix + "response body exceeds " +
                                             std::to_string(t.max_body_bytes) +
                                             " bytes (RestConfig::max_response_body_bytes)");
  }
  std::string what = t.error[0] != '\0' ? t.error : curl_easy_strerror(code);
  if (code == CURLE_OPERATION_TIMEDOUT) {
    std::string limit = t.handler != nullptr ? "idle timeout " : "request timeout ";
    return Status(StatusCode::kTimeout, prefix + "timed out (" + limit +
                                            std::to_string(t.timeout_for_message.count()) +
                                            " ms): " + what);
  }
  std::string hint;
  if (code == CURLE_COULDNT_CONNECT && std::strstr(t.error, "refused") != nullptr) {
    hint = " (connection refused: is the API server running at that address?)";
  } else if (code == CURLE_PEER_FAILED_VERIFICATION) {
    hint =
        " (TLS: the server certificate is not signed by the configured certificate-authority, "
        "or its name does not match the server address)";
  } else if (code == CURLE_SSL_CONNECT_ERROR || code == CURLE_SSL_CERTPROBLEM) {
    hint = " (TLS handshake failed: check the CA, the client certificate and key)";
  }
  return Status(StatusCode::kUnavailable, prefix + what + hint);
}

std::unique_ptr<CurlTransport::Session> CurlTransport::TakeSession(
    const std::shared_ptr<const TlsMaterial>& tls) {
  std::vector<std::unique_ptr<Session>> stale;  // closed outside the lock
  {
    std::lock_guard lock(mu_);
    if (!idle_sessions_.empty() && idle_sessions_.back()->tls == tls) {
      auto session = std::move(idle_sessions_.back());
      idle_sessions_.pop_back();
      return session;
    }
    // After a certificate rotation, connections made with the old pair go.
    stale.swap(idle_sessions_);
  }
  auto session = std::make_unique<Session>();
  session->tls = tls;
  return session;
}

void CurlTransport::ReturnSession(std::unique_ptr<Session> session) {
  std::lock_guard lock(mu_);
  if (idle_sessions_.size() < kMaxIdleSessions) idle_sessions_.push_back(std::move(session));
}

}  // namespace kube
