#include "src/auth/ServingCertificate.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace kube {
namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using BigNumPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;

Status OpenSslError(const std::string& what) {
  unsigned long code = ERR_get_error();
  char text[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, text, sizeof(text));
  ERR_clear_error();
  return Status(StatusCode::kInternal, what + ": " + text);
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::kNotFound, "cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) return Status(StatusCode::kInvalidArgument, path + " is empty");
  return text.str();
}

bool AddExtension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return false;
  bool added = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return added;
}

bool SetRandomSerial(X509* cert) {
  BigNumPtr serial(BN_new());
  if (!serial || BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1) return false;
  return BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert)) != nullptr;
}

bool SetNames(X509* cert, const std::vector<std::string>& dns_names) {
  X509_NAME* name = X509_get_subject_name(cert);
  const auto* cn = reinterpret_cast<const unsigned char*>(dns_names.front().c_str());
  if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, cn, -1, -1, 0) != 1) return false;
  if (X509_set_issuer_name(cert, name) != 1) return false;
  std::string alt_names;
  for (const auto& dns : dns_names) alt_names += "DNS:" + dns + ",";
  alt_names += "IP:127.0.0.1";
  return AddExtension(cert, NID_subject_alt_name, alt_names) &&
         AddExtension(cert, NID_basic_constraints, "critical,CA:FALSE") &&
         AddExtension(cert, NID_key_usage, "critical,digitalSignature,keyEncipherment") &&
         AddExtension(cert, NID_ext_key_usage, "serverAuth");
}

Result<std::string> ToPem(X509* cert, EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio) return OpenSslError("BIO_new");
  bool written = cert != nullptr ? PEM_write_bio_X509(bio.get(), cert) == 1
                                 : PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0,
                                                            nullptr, nullptr) == 1;
  if (!written) return OpenSslError("writing PEM");
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

Result<ServingCertificate> ServingCertificate::FromDirectory(const std::string& dir) {
  auto cert = ReadFile(dir + "/tls.crt");
  if (!cert.ok()) return cert.status();
  auto key = ReadFile(dir + "/tls.key");
  if (!key.ok()) return key.status();
  return ServingCertificate{std::move(*cert), std::move(*key)};
}

Result<ServingCertificate> ServingCertificate::SelfSigned(const std::vector<std::string>& dns_names,
                                                          std::chrono::hours validity) {
  if (dns_names.empty()) return Status(StatusCode::kInvalidArgument, "no DNS name to certify");
  KeyPtr key(EVP_EC_gen("P-256"));
  if (!key) return OpenSslError("generating an ECDSA key");
  CertPtr cert(X509_new());
  if (!cert) return OpenSslError("X509_new");
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(validity).count();
  bool built = X509_set_version(cert.get(), 2) == 1 && SetRandomSerial(cert.get()) &&
               // An hour back: clients whose clock runs a little behind still accept it.
               X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) != nullptr &&
               X509_gmtime_adj(X509_getm_notAfter(cert.get()), seconds) != nullptr &&
               X509_set_pubkey(cert.get(), key.get()) == 1 && SetNames(cert.get(), dns_names) &&
               X509_sign(cert.get(), key.get(), EVP_sha256()) > 0;
  if (!built) return OpenSslError("building the self-signed certificate");
  auto cert_pem = ToPem(cert.get(), nullptr);
  if (!cert_pem.ok()) return cert_pem.status();
  auto key_pem = ToPem(nullptr, key.get());
  if (!key_pem.ok()) return key_pem.status();
  return ServingCertificate{std::move(*cert_pem), std::move(*key_pem)};
}

}  // namespace kube
