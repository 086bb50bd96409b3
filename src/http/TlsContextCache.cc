#include "src/http/TlsContextCache.h"

#include <openssl/err.h>

namespace kube {

Result<std::shared_ptr<boost::asio::ssl::context>> TlsContextCache::For(
    const std::shared_ptr<const TlsMaterial>& material) {
  std::lock_guard lock(mu_);
  if (context_ != nullptr && material_ == material) return context_;
  std::shared_ptr<boost::asio::ssl::context> context;
  try {
    context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
  } catch (const std::exception& e) {
    ERR_clear_error();
    return Status(StatusCode::kInternal, std::string("TLS: cannot create a context: ") + e.what());
  }
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  material->InstallInto(context->native_handle());
  context_ = std::move(context);
  material_ = material;
  return context_;
}

}  // namespace kube
