#pragma once

#include <string>

#include "src/base/Result.h"

namespace dra::testing {

// A throwaway PKI made with the openssl command line in `dir`: a CA, server
// certificates and client certificates it signed. Paths are returned.
class TestCertificates {
 public:
  struct Pair {
    std::string cert, key;
  };

  explicit TestCertificates(std::string dir) : dir_(std::move(dir)) {}

  // The CA: <dir>/<name>.crt and .key.
  kube::Result<Pair> MakeCa(const std::string& name);
  // A leaf signed by `ca` with common name `cn`; `san` like "IP:127.0.0.1"
  // or "DNS:api.example" (empty: no subjectAltName, a client certificate;
  // kNoSan: a server certificate named by its common name alone).
  static constexpr const char* kNoSan = "none";
  kube::Result<Pair> MakeLeaf(const Pair& ca, const std::string& name, const std::string& cn,
                              const std::string& san);

 private:
  std::string dir_;
};

}  // namespace dra::testing
