#include "src/config/InClusterConfig.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kube {
namespace {

std::string Env(const char* name) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): getenv races only with setenv, which we never call.
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

std::string ReadTrimmed(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

bool InClusterConfig::Available(const std::string& sa_dir) {
  return !Env("KUBERNETES_SERVICE_HOST").empty() && !Env("KUBERNETES_SERVICE_PORT").empty() &&
         std::filesystem::exists(sa_dir + "/token");
}

Result<RestConfig> InClusterConfig::Load(const std::string& sa_dir) {
  std::string host = Env("KUBERNETES_SERVICE_HOST");
  std::string port = Env("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty()) {
    return Status(StatusCode::kUnavailable,
                  "not running in a cluster: KUBERNETES_SERVICE_HOST/PORT are unset; pass "
                  "--kubeconfig or set KUBECONFIG");
  }
  if (!std::filesystem::exists(sa_dir + "/token")) {
    return Status(StatusCode::kUnavailable, "no service-account token at " + sa_dir +
                                                "/token (automountServiceAccountToken false?)");
  }
  RestConfig config;
  bool ipv6 = host.find(':') != std::string::npos;
  config.server = "https://" + (ipv6 ? "[" + host + "]" : host) + ":" + port;
  config.ca_pem = ReadTrimmed(sa_dir + "/ca.crt");
  if (config.ca_pem.empty()) {
    return Status(StatusCode::kUnavailable, "cannot read the cluster CA at " + sa_dir + "/ca.crt");
  }
  config.ca_pem += "\n";
  config.token = TokenSource::FromFile(sa_dir + "/token");
  std::string ns = ReadTrimmed(sa_dir + "/namespace");
  config.namespace_name = ns.empty() ? "default" : ns;
  config.source = "in-cluster service account";
  return config;
}

}  // namespace kube
