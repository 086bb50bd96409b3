#include <gtest/gtest.h>

#include "src/manager/ServingTlsSource.h"
#include "tests/support/TempDir.h"

namespace kube {
namespace {

using Names = std::vector<std::string>;

TEST(ServingTlsSourceTest, ServiceNamesAreTheOnesClientsInTheClusterDial) {
  EXPECT_EQ(ServingTlsSource::ServiceNames("m", "ns"),
            (Names{"localhost", "m", "m.ns", "m.ns.svc", "m.ns.svc.cluster.local"}));
  EXPECT_EQ(ServingTlsSource::ServiceNames("m", ""), (Names{"localhost", "m"}));
  EXPECT_EQ(ServingTlsSource::ServiceNames("", "ns"), (Names{"localhost"}));
}

TEST(ServingTlsSourceTest, TheSelfSignedCertificateIsMadeOnce) {
  ServingTlsSource source("", {"localhost"});
  auto first = source.Get();
  auto second = source.Get();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->cert_pem, second->cert_pem);
  EXPECT_EQ(first->key_pem, second->key_pem);
  EXPECT_FALSE(first->current) << "nothing to reload";
}

TEST(ServingTlsSourceTest, ADirectoryIsReadAndWatched) {
  dra::testing::TempDir dir;
  ServingTlsSource source(dir.path().string(), {"localhost"});
  EXPECT_EQ(source.Get().status().code(), StatusCode::kNotFound);
  auto cert = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(cert.ok());
  dir.Write("tls.crt", cert->cert_pem);
  dir.Write("tls.key", cert->key_pem);
  auto tls = source.Get();
  ASSERT_TRUE(tls.ok()) << tls.status().ToString();
  EXPECT_EQ(tls->cert_pem, cert->cert_pem);
  ASSERT_TRUE(tls->current);
  auto renewed = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(renewed.ok());
  dir.Write("tls.crt", renewed->cert_pem);
  auto now = tls->current();
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->first, renewed->cert_pem);
}

}  // namespace
}  // namespace kube
