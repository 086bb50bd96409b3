#include "src/http/cpprest/HttpBackendFactory.h"

#include "src/http/TlsMaterialSource.h"
#include "src/http/cpprest/CpprestTransport.h"
#include "src/http/curl/CurlTransport.h"

namespace kube {
namespace {

// cpprestsdk joins repeated headers into one value.
bool CpprestCanImpersonate(const Impersonation& as) {
  if (as.groups.size() > 1) return false;
  for (const auto& [key, values] : as.extra) {
    if (values.size() > 1) return false;
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<HttpTransport>> HttpBackendFactory::Create(const RestConfig& config,
                                                                  HttpBackend backend) {
  if (backend == HttpBackend::kOpenSsl) return HttpTransport::Create(config);
  auto tls = HttpTransport::CheckedTls(config);
  if (!tls.ok()) return tls.status();
  if (backend == HttpBackend::kCurl) {
    return std::unique_ptr<HttpTransport>(std::make_unique<CurlTransport>(config, *tls));
  }
  if (!config.tls_server_name.empty()) {
    return Status(StatusCode::kInvalidArgument, "tls-server-name is not supported by cpprestsdk");
  }
  if (!CpprestCanImpersonate(config.impersonate)) {
    return Status(StatusCode::kInvalidArgument,
                  "impersonating several groups or extra values is not supported by cpprestsdk "
                  "(it joins repeated headers into one value)");
  }
  try {
    return std::unique_ptr<HttpTransport>(std::make_unique<CpprestTransport>(config, *tls));
  } catch (const std::exception& e) {
    return Status(StatusCode::kInvalidArgument,
                  "cannot create HTTP client for " + config.server + ": " + e.what());
  }
}

}  // namespace kube
