#include "src/http/cpprest/HttpBackendFactory.h"

#include "src/http/TlsMaterialSource.h"
#include "src/http/cpprest/CpprestTransport.h"

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
  if (backend == HttpBackend::kCurl) return HttpTransport::Create(config);
  auto tls = HttpTransport::CheckedTls(config);
  if (!tls.ok()) return tls.status();
  if (!config.tls_server_name.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "tls-server-name is supported by the libcurl transport only");
  }
  if (!CpprestCanImpersonate(config.impersonate)) {
    return Status(StatusCode::kInvalidArgument,
                  "impersonating several groups or extra values is supported by the libcurl "
                  "transport only (cpprestsdk joins repeated headers into one value)");
  }
  try {
    return std::unique_ptr<HttpTransport>(std::make_unique<CpprestTransport>(config, *tls));
  } catch (const std::exception& e) {
    return Status(StatusCode::kInvalidArgument,
                  "cannot create HTTP client for " + config.server + ": " + e.what());
  }
}

}  // namespace kube
