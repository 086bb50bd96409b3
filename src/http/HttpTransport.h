#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"

namespace kube {

class TlsMaterialSource;

struct HttpRequest {
  std::string method = "GET";
  std::string path;  // path and already-encoded query, e.g. "/api/v1/pods?limit=500"
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type;  // for requests with a body
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? "" : it->second;
  }
};

// Receives a streamed response (a watch): the status and headers once, then
// body bytes as they arrive, in arbitrary chunks. Returning false from
// OnData stops the stream.
class StreamHandler {
 public:
  virtual ~StreamHandler() = default;
  virtual void OnHead(const HttpResponse& head) = 0;
  virtual bool OnData(std::string_view chunk) = 0;
};

// Lets another thread abort a running Stream() call.
class CancelFlag {
 public:
  void Cancel() {
    cancelled_ = true;
    std::lock_guard lock(mu_);  // held so the hook's owner cannot go away meanwhile
    if (hook_) hook_();
  }
  bool cancelled() const { return cancelled_; }
  // The transport installs a hook that interrupts blocking I/O.
  void SetHook(std::function<void()> hook) {
    std::lock_guard lock(mu_);
    hook_ = std::move(hook);
  }

 private:
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  std::function<void()> hook_;
};

// The narrow seam between the client runtime and an HTTP library. Only the
// implementation files include a library, which keeps each one replaceable.
//
// HTTP error statuses are returned as responses; only transport failures
// (connect, TLS, timeouts, caps, broken streams) are errors.
class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // One request with the absolute deadline RestConfig::request_timeout.
  virtual Result<HttpResponse> Send(const HttpRequest& request) = 0;
  // The same, and `cancel` aborts it from another thread. Transports that
  // cannot be interrupted (test fakes) ignore `cancel`.
  virtual Result<HttpResponse> Send(const HttpRequest& request, CancelFlag& cancel) {
    (void)cancel;
    return Send(request);
  }
  // Streams the response body into `handler` until the server ends it, the
  // handler stops it, `cancel` fires, or nothing arrives for `idle_timeout`.
  virtual Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                        std::chrono::seconds idle_timeout) = 0;

  // A transport for `config`: HTTP/1.1 on Boost.Beast and Boost.Asio
  // (BeastTransport).
  static Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config);
  // What every backend starts from: an http(s) server and the TLS material
  // the configuration names, loaded.
  static Result<std::shared_ptr<TlsMaterialSource>> CheckedTls(const RestConfig& config);
};

}  // namespace kube
