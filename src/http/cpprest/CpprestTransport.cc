#include "src/http/cpprest/CpprestTransport.h"

#include <cpprest/http_client.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <vector>

#include "src/base/AsciiText.h"
#include "src/http/RequestHeaders.h"
#include "src/http/TlsDiagnosis.h"

namespace kube {
namespace {

namespace http = web::http;
namespace client = web::http::client;

// Names the failure class so an operator can act on it; cpprest's own
// category text is often misleading (a timeout reads as a status-line error).
Status TransportError(const std::string& server, const std::exception& e) {
  std::string what = e.what();
  StatusCode code = StatusCode::kUnavailable;
  std::string hint;
  if (const auto* he = dynamic_cast<const http::http_exception*>(&e)) {
    int ec = he->error_code().value();
    if (ec == ETIMEDOUT || what.find("timed out") != std::string::npos) code = StatusCode::kTimeout;
    if (ec == ECONNREFUSED)
      hint = " (connection refused: is the API server running at that address?)";
  }
  if (what.find("certificate verify failed") != std::string::npos) {
    hint =
        " (TLS: the server certificate is not signed by the configured certificate-authority, "
        "or its name does not match the server address)";
  } else if (what.find("handshake") != std::string::npos || what.find("SSL") != std::string::npos) {
    hint = " (TLS handshake failed: check the CA, the client certificate and key)";
  }
  return Status(code, "request to " + server + " failed: " + what + hint);
}

http::method Method(const std::string& m) {
  if (m == "GET") return http::methods::GET;
  if (m == "POST") return http::methods::POST;
  if (m == "PUT") return http::methods::PUT;
  if (m == "PATCH") return http::methods::PATCH;
  if (m == "DELETE") return http::methods::DEL;
  return m;
}

// What a finished request task holds, as values made on the library's
// thread: the caller never touches an exception object that the library's
// threads still reference (those reference counts live in libstdc++ and
// cpprestsdk, where nothing orders the caller's reads before their release).
struct Settled {
  Result<HttpResponse> result = Status(StatusCode::kInternal, "request not finished");
  bool tls_failure = false;  // worth a diagnosing handshake on the caller's thread
};

bool MentionsSsl(const std::exception& e) {
  return std::string(e.what()).find("SSL") != std::string::npos;
}

Settled Settle(const pplx::task<HttpResponse>& task, const std::string& server) {
  Settled settled;
  try {
    settled.result = task.get();
  } catch (const pplx::task_canceled&) {
    settled.result = Status(StatusCode::kCancelled, "request cancelled");
  } catch (const std::length_error& e) {
    settled.result = Status(StatusCode::kTooLarge, "request to " + server + " failed: " + e.what());
  } catch (const std::exception& e) {
    settled.result = TransportError(server, e);
    settled.tls_failure = MentionsSsl(e);
  } catch (...) {
    settled.result = Status(StatusCode::kUnavailable, "request to " + server + " failed");
  }
  return settled;
}

HttpResponse Head(const http::http_response& response) {
  HttpResponse head;
  head.status = response.status_code();
  for (const auto& [name, value] : response.headers()) head.headers[AsciiText::Lower(name)] = value;
  return head;
}

}  // namespace

struct CpprestTransport::Impl {
  RestConfig config;
  std::shared_ptr<TlsMaterialSource> tls;
  std::unique_ptr<client::http_client> shared_client;  // for ordinary requests

  std::unique_ptr<client::http_client> NewClient(std::chrono::seconds timeout) const {
    client::http_client_config cfg;
    cfg.set_timeout(timeout);
    cfg.set_validate_certificates(!config.insecure_skip_tls_verify);
    // A redirect is returned to the caller, as by the libcurl transport.
    // Following them also makes cpprestsdk copy the request into its
    // redirect follower on the calling thread after it has handed the same
    // request to a pool thread (asio_client::propagate); TSan reports that
    // copy racing with the pool thread.
    cfg.set_max_redirects(0);
    auto source = tls;
    cfg.set_ssl_context_callback([source](boost::asio::ssl::context& ctx) {
      source->Current()->InstallInto(ctx.native_handle());
    });
    return std::make_unique<client::http_client>(web::uri(config.server), cfg);
  }

  Result<http::http_request> Build(const HttpRequest& request) const {
    http::http_request req(Method(request.method));
    req.set_request_uri(web::uri(request.path));
    auto headers = RequestHeaders::For(config, request);
    if (!headers.ok()) return headers.status();
    std::string content_type = "application/json";
    for (const auto& [name, value] : *headers) {
      if (AsciiText::Lower(name) == "content-type") {
        content_type = value;
      } else {
        req.headers().add(name, value);
      }
    }
    if (!request.body.empty() || !request.content_type.empty()) {
      req.set_body(request.body, content_type);
    }
    return req;
  }
};

CpprestTransport::CpprestTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls)
    : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  impl_->tls = std::move(tls);
  auto timeout = std::chrono::duration_cast<std::chrono::seconds>(impl_->config.request_timeout);
  impl_->shared_client = impl_->NewClient(std::max(timeout, std::chrono::seconds(1)));
}

CpprestTransport::~CpprestTransport() = default;

Result<HttpResponse> CpprestTransport::Send(const HttpRequest& request) {
  CancelFlag never;
  return Send(request, never);
}

// The library's timeout is an inactivity timer; the absolute deadline is
// enforced here by waiting on the caller's thread and cancelling the task.
Result<HttpResponse> CpprestTransport::Send(const HttpRequest& request, CancelFlag& cancel) {
  struct Outcome {
    std::mutex mu;
    std::condition_variable done_cv;
    bool done = false;
    Settled settled;
  };
  auto outcome = std::make_shared<Outcome>();
  pplx::cancellation_token_source cts;
  cancel.SetHook([cts]() mutable { cts.cancel(); });
  struct ClearHook {
    CancelFlag& flag;
    ~ClearHook() { flag.SetHook(nullptr); }
  } clear_hook{cancel};
  auto deadline = std::chrono::steady_clock::now() + impl_->config.request_timeout;
  try {
    auto req = impl_->Build(request);
    if (!req.ok()) return req.status();
    size_t max_body = impl_->config.max_response_body_bytes;
    impl_->shared_client->request(*req, cts.get_token())
        .then([max_body](http::http_response response) {
          if (response.headers().content_length() > max_body) {
            throw std::length_error("response body exceeds " + std::to_string(max_body) +
                                    " bytes (RestConfig::max_response_body_bytes)");
          }
          return response.extract_vector().then([response, max_body](std::vector<uint8_t> bytes) {
            if (bytes.size() > max_body) {
              throw std::length_error("response body exceeds " + std::to_string(max_body) +
                                      " bytes (RestConfig::max_response_body_bytes)");
            }
            HttpResponse out = Head(response);
            out.body.assign(bytes.begin(), bytes.end());
            return out;
          });
        })
        .then([outcome, server = impl_->config.server](const pplx::task<HttpResponse>& task) {
          // Runs on the library's pool, possibly after Send gave up: it only
          // hands the outcome over, as values.
          Settled settled = Settle(task, server);
          std::lock_guard lock(outcome->mu);
          outcome->settled = std::move(settled);
          outcome->done = true;
          outcome->done_cv.notify_all();
        });
  } catch (const std::exception& e) {
    return ExplainedError(e);
  }
  std::unique_lock lock(outcome->mu);
  // The cancel closed the library's socket; waiting (at most 500 ms) for its
  // task to settle keeps the request's continuations from still running on
  // the library's pool after Send returned, e.g. while the process exits.
  auto cancelled = [&] {
    outcome->done_cv.wait_for(lock, std::chrono::milliseconds(500), [&] { return outcome->done; });
    return Status(StatusCode::kCancelled, "request cancelled");
  };
  while (!outcome->done) {
    if (cancel.cancelled()) return cancelled();
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      cts.cancel();
      return Status(StatusCode::kTimeout,
                    "request to " + impl_->config.server + " failed: timed out (request timeout " +
                        std::to_string(impl_->config.request_timeout.count()) + " ms)");
    }
    outcome->done_cv.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(200)));
  }
  // Cancelling closes the socket, which the library may report as an error.
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "request cancelled");
  Settled settled = std::move(outcome->settled);
  if (settled.result.ok() || !settled.tls_failure) return std::move(settled.result);
  return ExplainedError(settled.result.status(), true);
}

Status CpprestTransport::ExplainedError(const std::exception& e) const {
  return ExplainedError(TransportError(impl_->config.server, e), MentionsSsl(e));
}

Status CpprestTransport::ExplainedError(Status error, bool tls_failure) const {
  // A timeout says nothing a second handshake could explain.
  if (error.code() == StatusCode::kTimeout || !tls_failure) return error;
  std::string reason = DiagnoseTlsFailure(impl_->config.server, *impl_->tls->Current(),
                                          !impl_->config.insecure_skip_tls_verify);
  return reason.empty() ? error : Status(error.code(), error.message() + "; " + reason);
}

Status CpprestTransport::Stream(const HttpRequest& request, StreamHandler& handler,
                                CancelFlag& cancel, std::chrono::seconds idle_timeout) {
  pplx::cancellation_token_source cts;
  cancel.SetHook([&cts] { cts.cancel(); });
  struct ClearHook {
    CancelFlag& flag;
    ~ClearHook() { flag.SetHook(nullptr); }
  } clear_hook{cancel};
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "stream cancelled");
  try {
    auto req = impl_->Build(request);
    if (!req.ok()) return req.status();
    auto stream_client = impl_->NewClient(idle_timeout);
    http::http_response response = stream_client->request(*req, cts.get_token()).get();
    handler.OnHead(Head(response));
    auto body = response.body().streambuf();
    std::vector<uint8_t> chunk(size_t{64} * 1024);
    while (!cancel.cancelled()) {
      // Wait for one byte, then take whatever else is already buffered: a
      // large getn() would wait for the whole count and delay events.
      auto first = body.bumpc().get();
      if (first == concurrency::streams::char_traits<uint8_t>::eof()) return Status::Ok();
      chunk[0] = static_cast<uint8_t>(first);
      size_t n = 1 + std::min(body.in_avail(), chunk.size() - 1);
      size_t got = n > 1 ? body.getn(chunk.data() + 1, n - 1).get() : 0;
      std::string_view data(reinterpret_cast<const char*>(chunk.data()), 1 + got);
      if (!handler.OnData(data)) {
        cts.cancel();
        return Status::Ok();
      }
    }
    cts.cancel();
    return Status(StatusCode::kCancelled, "stream cancelled");
  } catch (const pplx::task_canceled&) {
    return Status(StatusCode::kCancelled, "stream cancelled");
  } catch (const std::exception& e) {
    if (cancel.cancelled()) return Status(StatusCode::kCancelled, "stream cancelled");
    return ExplainedError(e);
  }
}

}  // namespace kube
