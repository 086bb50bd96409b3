#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/config/TokenSource.h"

namespace kube {

// Who the API server should treat the requests as coming from (kubeconfig
// `as`, `as-uid`, `as-groups`, `as-user-extra`); sent as Impersonate-* headers.
struct Impersonation {
  std::string user;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  bool empty() const { return user.empty() && uid.empty() && groups.empty() && extra.empty(); }
};

// Everything needed to reach and authenticate to one API server. PEM material
// is held in memory whether it came from a file or from a `*-data` field.
struct RestConfig {
  std::string server;           // https://host:port, no trailing slash
  std::string ca_pem;           // empty: trust the system store
  std::string client_cert_pem;  // mTLS client certificate (with client_key_pem)
  std::string client_key_pem;
  // Where client_cert_pem/client_key_pem were read from, when they came from
  // files: new connections re-read them after a rotation. Empty for `*-data`.
  std::string client_cert_file;
  std::string client_key_file;
  std::shared_ptr<TokenSource> token;  // bearer token, may be null
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;  // overrides SNI / verification name when set
  Impersonation impersonate;
  std::string namespace_name;  // namespace of the kubeconfig context ("default" if unset)
  std::string source;          // where it came from, for logs: "kubeconfig /x", "in-cluster"
  // Absolute deadline of one non-streaming request: connect, TLS handshake,
  // sending, response headers and body. Streams use their idle timeout.
  std::chrono::milliseconds request_timeout{30000};
  // A larger response body (non-streaming requests) fails the request rather
  // than exhausting memory; LIST pages of 500 large objects fit easily.
  std::size_t max_response_body_bytes = std::size_t{64} * 1024 * 1024;
  // Status line plus all header lines of one response.
  std::size_t max_response_header_bytes = std::size_t{1024} * 1024;
  std::string user_agent = "kube-runtime-cpp";  // programs set their own
};

}  // namespace kube
