#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "src/http/HttpTransport.h"
#include "src/http/TlsMaterialSource.h"

namespace kube {

// HttpTransport over libcurl's multi interface, driven on the caller's
// thread: every wait is bounded by the request's absolute deadline (streams:
// by the idle timeout) and wakes up at once when the request is cancelled.
// Response headers and non-streaming bodies are capped
// (RestConfig::max_response_*_bytes), and a request that timed out is never
// sent again. As with cpprest, a configured CA replaces the system store.
// This class and its .cc are the only code that includes libcurl; it is in the
// kube_curl library, which the tests link and dra-controller does not.
class CurlTransport : public HttpTransport {
 public:
  CurlTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls);
  ~CurlTransport() override;

  Result<HttpResponse> Send(const HttpRequest& request) override;
  Result<HttpResponse> Send(const HttpRequest& request, CancelFlag& cancel) override;
  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds idle_timeout) override;

 private:
  struct Session;   // a multi + easy handle pair that keeps its connections alive
  struct Transfer;  // the state of one request, shared with libcurl's callbacks

  Status Perform(const HttpRequest& request, Transfer& transfer, CancelFlag& cancel);
  Status Configure(Session& session, const HttpRequest& request, Transfer& transfer) const;
  // The easy handle is a void* so that this header need not include libcurl.
  void SetLimits(void* easy, const Transfer& transfer) const;
  void SetTls(void* easy, Transfer& transfer) const;
  void SetMethod(void* easy, const HttpRequest& request, Transfer& transfer,
                 bool has_content_type) const;
  Status Run(Session& session, Transfer& transfer, CancelFlag& cancel) const;
  Status Failure(int curl_code, const Transfer& transfer) const;
  std::unique_ptr<Session> TakeSession(const std::shared_ptr<const TlsMaterial>& tls);
  void ReturnSession(std::unique_ptr<Session> session);

  RestConfig config_;
  std::shared_ptr<TlsMaterialSource> tls_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Session>> idle_sessions_;
};

}  // namespace kube
