#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "src/http/HttpTransport.h"
#include "src/http/ServerAddress.h"
#include "src/http/TlsMaterialSource.h"

namespace kube {

class BeastConnection;
class TlsContextCache;

// HttpTransport on Boost.Beast's HTTP/1.1 parser (ResponseDecoder) over
// Boost.Asio sockets and TLS (BeastConnection). Every wait is bounded by the
// request's absolute deadline (streams: by the idle timeout) and ends at once
// on a cancel; headers, framing, trailers and non-streamed bodies are capped
// (RestConfig::max_response_*_bytes). Kept-alive connections wait in a pool
// of at most 8, each for at most 90 s (client-go's idle timeout). A request
// that found a pooled connection dead before any response byte is sent once
// more on a new connection only when nothing of it was written, or when it is
// a GET, HEAD, OPTIONS or TRACE (Go's rule): a write may have reached the
// server. A timed-out request is never sent again.
class BeastTransport : public HttpTransport {
 public:
  BeastTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls);
  ~BeastTransport() override;

  Result<HttpResponse> Send(const HttpRequest& request) override;
  Result<HttpResponse> Send(const HttpRequest& request, CancelFlag& cancel) override;
  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds idle_timeout) override;

 private:
  using Clock = std::chrono::steady_clock;
  using Material = std::shared_ptr<const TlsMaterial>;
  struct Exchange;  // one request's state

  Status Perform(const HttpRequest& request, Exchange& exchange, CancelFlag& cancel);
  Status Attempt(BeastConnection& connection, const std::string& wire, const HttpRequest& request,
                 Exchange& exchange, CancelFlag& cancel) const;
  Result<std::string> Serialize(const HttpRequest& request) const;
  Result<std::unique_ptr<BeastConnection>> Connect(const Material& material, Exchange& exchange,
                                                   CancelFlag& cancel);
  Status Failure(const Status& status, const Exchange& exchange) const;
  std::unique_ptr<BeastConnection> TakeIdle(const Material& material);
  void ReturnIdle(std::unique_ptr<BeastConnection> connection, const Material& material);

  RestConfig config_;
  std::shared_ptr<TlsMaterialSource> tls_;
  ServerAddress server_;
  std::unique_ptr<TlsContextCache> contexts_;
  std::mutex mu_;
  std::vector<std::pair<Material, std::unique_ptr<BeastConnection>>> idle_;
};

}  // namespace kube
