#include <gtest/gtest.h>
#include <openssl/x509.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/http/TlsMaterialSource.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestCertificates.h"

namespace kube {
namespace {

using dra::testing::TempDir;
using dra::testing::TestCertificates;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string CommonName(const TlsMaterial& material) {
  char cn[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(material.client_certificate()), NID_commonName,
                            cn, sizeof(cn));
  return cn;
}

class TlsMaterialSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TestCertificates pki(dir_.path().string());
    auto ca = pki.MakeCa("ca");
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    auto a = pki.MakeLeaf(*ca, "a", "client-a", "");
    auto b = pki.MakeLeaf(*ca, "b", "client-b", "");
    ASSERT_TRUE(a.ok() && b.ok());
    a_ = *a;
    b_ = *b;
    config_.client_cert_file = dir_.Write("tls.crt", ReadAll(a_.cert));
    config_.client_key_file = dir_.Write("tls.key", ReadAll(a_.key));
    config_.client_cert_pem = ReadAll(a_.cert);
    config_.client_key_pem = ReadAll(a_.key);
  }
  void Replace(const std::string& path, const std::string& content) {
    std::filesystem::rename(dir_.Write("swap.tmp", content), path);
  }

  TempDir dir_;
  TestCertificates::Pair a_, b_;
  RestConfig config_;
};

TEST_F(TlsMaterialSourceTest, UnchangedFilesKeepTheSameMaterial) {
  auto source = TlsMaterialSource::FromConfig(config_);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto first = (*source)->Current();
  EXPECT_EQ((*source)->Current(), first);
  EXPECT_EQ(CommonName(*first), "client-a");
}

TEST_F(TlsMaterialSourceTest, RotatedPairIsPickedUp) {
  auto source = TlsMaterialSource::FromConfig(config_);
  ASSERT_TRUE(source.ok());
  Replace(config_.client_cert_file, ReadAll(b_.cert));
  Replace(config_.client_key_file, ReadAll(b_.key));
  EXPECT_EQ(CommonName(*(*source)->Current()), "client-b");
}

TEST_F(TlsMaterialSourceTest, HalfDoneRotationKeepsThePreviousPair) {
  auto source = TlsMaterialSource::FromConfig(config_);
  ASSERT_TRUE(source.ok());
  auto before = (*source)->Current();
  Replace(config_.client_cert_file, ReadAll(b_.cert));  // key not swapped yet
  EXPECT_EQ((*source)->Current(), before);
  Replace(config_.client_key_file, ReadAll(b_.key));
  EXPECT_EQ(CommonName(*(*source)->Current()), "client-b");
}

TEST_F(TlsMaterialSourceTest, InlineDataIsNeverReread) {
  config_.client_cert_file.clear();
  config_.client_key_file.clear();
  auto source = TlsMaterialSource::FromConfig(config_);
  ASSERT_TRUE(source.ok());
  auto before = (*source)->Current();
  Replace(dir_.path().string() + "/tls.crt", ReadAll(b_.cert));
  EXPECT_EQ((*source)->Current(), before);
}

}  // namespace
}  // namespace kube
