#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <mutex>

#include "src/base/Result.h"
#include "src/http/TlsMaterial.h"

namespace kube {

// The client TLS context for the current TLS material, made once per
// material: TLS 1.2 at least (client-go's floor), the material's trust and
// client certificate. After a rotation the next call makes a new context;
// connections made with the old one keep it.
class TlsContextCache {
 public:
  Result<std::shared_ptr<boost::asio::ssl::context>> For(
      const std::shared_ptr<const TlsMaterial>& material);

 private:
  std::mutex mu_;
  std::shared_ptr<const TlsMaterial> material_;
  std::shared_ptr<boost::asio::ssl::context> context_;
};

}  // namespace kube
