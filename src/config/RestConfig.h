#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "src/config/TokenSource.h"

namespace kube {

// Everything needed to reach and authenticate to one API server. PEM material
// is held in memory whether it came from a file or from a `*-data` field.
struct RestConfig {
  std::string server;           // https://host:port, no trailing slash
  std::string ca_pem;           // empty: trust the system store
  std::string client_cert_pem;  // mTLS client certificate (with client_key_pem)
  std::string client_key_pem;
  std::shared_ptr<TokenSource> token;  // bearer token, may be null
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;  // overrides SNI / verification name when set
  std::string namespace_name;   // namespace of the kubeconfig context ("default" if unset)
  std::string source;           // where it came from, for logs: "kubeconfig /x", "in-cluster"
  std::chrono::milliseconds request_timeout{30000};
  std::string user_agent = "dra-controller";
};

}  // namespace kube
