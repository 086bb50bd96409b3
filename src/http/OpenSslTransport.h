#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "src/http/CancelWake.h"
#include "src/http/HttpConnection.h"
#include "src/http/HttpTransport.h"
#include "src/http/ServerAddress.h"
#include "src/http/TlsMaterialSource.h"

namespace kube {

// HttpTransport speaking HTTP/1.1 itself, over sockets and OpenSSL: the
// runtime talks to one API server and needs nothing of a general HTTP
// library but keep-alive, chunked bodies and TLS. Every wait is bounded by
// the request's absolute deadline (streams: by the idle timeout) and wakes at
// once on a cancel; headers and non-streaming bodies are capped
// (RestConfig::max_response_*_bytes); a request that timed out is never sent
// again, and one that found a kept-alive connection closed by the server is
// sent once more on a new connection. A configured CA replaces the system
// store; tls-server-name is what SNI and verification use.
class OpenSslTransport : public HttpTransport {
 public:
  OpenSslTransport(RestConfig config, std::shared_ptr<TlsMaterialSource> tls);
  ~OpenSslTransport() override;

  Result<HttpResponse> Send(const HttpRequest& request) override;
  Result<HttpResponse> Send(const HttpRequest& request, CancelFlag& cancel) override;
  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds idle_timeout) override;

 private:
  using Clock = HttpConnection::Clock;
  struct Exchange;  // one request's state
  struct ContextDeleter {
    void operator()(SSL_CTX* context) const { SSL_CTX_free(context); }
  };
  using Material = std::shared_ptr<const TlsMaterial>;

  Status Perform(const HttpRequest& request, Exchange& exchange, CancelFlag& cancel);
  Status Attempt(HttpConnection& connection, const std::string& wire, const HttpRequest& request,
                 Exchange& exchange, const CancelWake& wake) const;
  Result<std::string> Serialize(const HttpRequest& request) const;
  Result<std::unique_ptr<HttpConnection>> Connect(const Material& material, Exchange& exchange,
                                                  const CancelWake& wake);
  Result<SSL_CTX*> ContextFor(const Material& material);
  Status Failure(const Status& status, const Exchange& exchange) const;
  std::unique_ptr<HttpConnection> TakeIdle(const Material& material);
  void ReturnIdle(std::unique_ptr<HttpConnection> connection, const Material& material);

  RestConfig config_;
  std::shared_ptr<TlsMaterialSource> tls_;
  ServerAddress server_;
  std::mutex mu_;
  Material context_material_;
  std::unique_ptr<SSL_CTX, ContextDeleter> context_;
  std::vector<std::pair<Material, std::unique_ptr<HttpConnection>>> idle_;
};

}  // namespace kube
