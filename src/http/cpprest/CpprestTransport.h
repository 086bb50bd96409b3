#pragma once

#include <memory>

#include "src/http/HttpTransport.h"
#include "src/http/TlsMaterialSource.h"

namespace kube {

// HttpTransport over cpprestsdk (Boost.Asio backend). This class and its .cc
// are the only code that includes cpprestsdk. Handled pitfalls: no blocking
// waits inside the library's thread pool (callers block on their own
// threads), only the configured CA is trusted, streamed bodies are drained as
// bytes arrive (no getn() stalls), each stream gets its own client whose
// inactivity timeout is the stream's idle timeout, redirects are returned as
// responses (not followed), and a request's outcome reaches the caller as a
// value made on the pool thread, never as an exception object the pool still
// shares. Limits: response headers are not capped and a body without
// Content-Length is capped only after it was read, which is why CurlTransport
// is the default.
class CpprestTransport : public HttpTransport {
 public:
  CpprestTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls);
  ~CpprestTransport() override;

  Result<HttpResponse> Send(const HttpRequest& request) override;
  Result<HttpResponse> Send(const HttpRequest& request, CancelFlag& cancel) override;
  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds idle_timeout) override;

 private:
  // The transport error, plus OpenSSL's own reason when a TLS handshake failed.
  Status ExplainedError(const std::exception& e) const;
  Status ExplainedError(Status error, bool tls_failure) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube
