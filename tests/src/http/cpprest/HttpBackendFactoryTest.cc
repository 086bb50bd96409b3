#include <gtest/gtest.h>

#include "src/http/cpprest/HttpBackendFactory.h"

namespace kube {
namespace {

// The backends' behaviour is HttpTransportTest's (run on each); these are the
// factory's own refusals, before any transport exists.
TEST(HttpBackendFactoryTest, RefusesAServerThatIsNotHttpOnEveryBackend) {
  RestConfig config;
  config.server = "ftp://127.0.0.1:1";
  for (HttpBackend backend : {HttpBackend::kOpenSsl, HttpBackend::kCurl, HttpBackend::kCpprest}) {
    auto transport = HttpBackendFactory::Create(config, backend);
    ASSERT_FALSE(transport.ok());
    EXPECT_EQ(transport.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(transport.status().message().find("must start with https://"), std::string::npos);
  }
}

TEST(HttpBackendFactoryTest, CpprestAloneRefusesATlsServerName) {
  RestConfig config;
  config.server = "https://127.0.0.1:1";
  config.insecure_skip_tls_verify = true;
  config.tls_server_name = "api.example";
  EXPECT_TRUE(HttpBackendFactory::Create(config, HttpBackend::kOpenSsl).ok());
  EXPECT_TRUE(HttpBackendFactory::Create(config, HttpBackend::kCurl).ok());
  auto cpprest = HttpBackendFactory::Create(config, HttpBackend::kCpprest);
  ASSERT_FALSE(cpprest.ok());
  EXPECT_NE(cpprest.status().message().find("not supported by cpprestsdk"), std::string::npos);
}

}  // namespace
}  // namespace kube
