#include "src/http/HttpTransport.h"

#include "src/http/BeastTransport.h"
#include "src/http/TlsMaterialSource.h"

namespace kube {

Result<std::shared_ptr<TlsMaterialSource>> HttpTransport::CheckedTls(const RestConfig& config) {
  if (config.server.rfind("https://", 0) != 0 && config.server.rfind("http://", 0) != 0) {
    return Status(StatusCode::kInvalidArgument,
                  "server \"" + config.server + "\" must start with https:// (or http://)");
  }
  return TlsMaterialSource::FromConfig(config);
}

Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(const RestConfig& config) {
  auto tls = CheckedTls(config);
  if (!tls.ok()) return tls.status();
  return std::unique_ptr<HttpTransport>(std::make_unique<BeastTransport>(config, *tls));
}

}  // namespace kube
