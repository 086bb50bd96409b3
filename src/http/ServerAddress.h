#pragma once

#include <string>
#include <string_view>

namespace kube {

// The parts of a kubeconfig server URL ("https://host:port/prefix") that a
// transport connects and writes requests with. One parser for every
// transport and the TLS diagnosis, so they agree on IPv6 brackets, default
// ports and trailing slashes.
struct ServerAddress {
  bool https = false;
  std::string authority;  // "host:port" as written, brackets kept
  std::string host;       // without IPv6 brackets
  std::string port;       // as written, else 443 or 80 by scheme
  std::string prefix;     // the path before every request's, no trailing '/'

  // `server` is http:// or https:// (HttpTransport::CheckedTls admits no
  // other); anything after the authority is the prefix.
  static ServerAddress Parse(std::string_view server);

  // The host as a URL or Host header writes it: IPv6 in brackets.
  std::string UrlHost() const;
};

}  // namespace kube
