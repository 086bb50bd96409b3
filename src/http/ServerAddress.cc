#include "src/http/ServerAddress.h"

namespace kube {

ServerAddress ServerAddress::Parse(std::string_view server) {
  ServerAddress address;
  size_t scheme_end = server.find("://");
  std::string_view rest = server;
  if (scheme_end != std::string_view::npos) {
    address.https = server.substr(0, scheme_end) == "https";
    rest = server.substr(scheme_end + 3);
  }
  size_t slash = rest.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = rest.substr(slash);
    while (!prefix.empty() && prefix.back() == '/') prefix.remove_suffix(1);
    address.prefix = prefix;
    rest = rest.substr(0, slash);
  }
  address.authority = rest;
  size_t colon = rest.rfind(':');
  bool has_port =
      colon != std::string_view::npos && rest.find(']', colon) == std::string_view::npos;
  address.host = has_port ? rest.substr(0, colon) : rest;
  address.port = has_port ? std::string(rest.substr(colon + 1)) : (address.https ? "443" : "80");
  if (address.host.size() >= 2 && address.host.front() == '[' && address.host.back() == ']') {
    address.host = address.host.substr(1, address.host.size() - 2);
  }
  return address;
}

std::string ServerAddress::UrlHost() const {
  return host.find(':') == std::string::npos ? host : "[" + host + "]";
}

}  // namespace kube
