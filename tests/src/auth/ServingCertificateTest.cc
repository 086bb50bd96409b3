#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "src/auth/ServingCertificate.h"
#include "tests/support/TempDir.h"

namespace kube {
namespace {

X509* ParseCert(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return cert;
}

EVP_PKEY* ParseKey(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return key;
}

TEST(ServingCertificateTest, SelfSignedIsAValidServerCertificateForItsNames) {
  auto generated = ServingCertificate::SelfSigned({"localhost", "metrics.example"});
  ASSERT_TRUE(generated.ok()) << generated.status().ToString();
  X509* cert = ParseCert(generated->cert_pem);
  EVP_PKEY* key = ParseKey(generated->key_pem);
  ASSERT_NE(cert, nullptr);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(X509_check_private_key(cert, key), 1);
  EXPECT_EQ(X509_verify(cert, key), 1);  // self-signed
  EXPECT_EQ(X509_check_host(cert, "localhost", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_host(cert, "metrics.example", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_host(cert, "elsewhere.example", 0, 0, nullptr), 0);
  EXPECT_EQ(X509_check_ip_asc(cert, "127.0.0.1", 0), 1);
  EXPECT_EQ(X509_cmp_current_time(X509_get0_notBefore(cert)), -1);  // already valid
  EXPECT_EQ(X509_cmp_current_time(X509_get0_notAfter(cert)), 1);    // not expired
  EXPECT_EQ(X509_check_purpose(cert, X509_PURPOSE_SSL_SERVER, 0), 1);
  EXPECT_EQ(X509_check_ca(cert), 0);
  EVP_PKEY_free(key);
  X509_free(cert);
}

TEST(ServingCertificateTest, EachGenerationHasItsOwnKey) {
  auto first = ServingCertificate::SelfSigned({"localhost"});
  auto second = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first->key_pem, second->key_pem);
  EXPECT_NE(first->cert_pem, second->cert_pem);
}

TEST(ServingCertificateTest, SelfSignedNeedsAName) {
  EXPECT_EQ(ServingCertificate::SelfSigned({}).status().code(), StatusCode::kInvalidArgument);
}

TEST(ServingCertificateTest, FromDirectoryReadsTlsCrtAndTlsKey) {
  dra::testing::TempDir dir;
  auto generated = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(generated.ok());
  const std::string path = dir.path().string();
  EXPECT_EQ(ServingCertificate::FromDirectory(path).status().code(), StatusCode::kNotFound);
  dir.Write("tls.crt", generated->cert_pem);
  EXPECT_EQ(ServingCertificate::FromDirectory(path).status().code(), StatusCode::kNotFound);
  dir.Write("tls.key", generated->key_pem);
  auto loaded = ServingCertificate::FromDirectory(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->cert_pem, generated->cert_pem);
  EXPECT_EQ(loaded->key_pem, generated->key_pem);
}

}  // namespace
}  // namespace kube
