#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"

namespace kube {

// A parsed kubeconfig file (or several merged the way kubectl merges
// KUBECONFIG=a:b: for each named cluster/user/context the first file that
// defines it wins, and so does the first current-context).
class Kubeconfig {
 public:
  struct Cluster {
    std::string server;
    std::string ca_file;
    std::string ca_data;  // decoded PEM
    bool insecure_skip_tls_verify = false;
    std::string tls_server_name;
    std::string proxy_url;  // refused: not supported
  };
  struct User {
    std::string client_cert_file, client_cert_data;
    std::string client_key_file, client_key_data;
    std::string token, token_file;
    Impersonation impersonate;  // as, as-uid, as-groups, as-user-extra
    std::string unsupported;    // "exec", "auth-provider", "username/password"
  };
  struct Context {
    std::string cluster, user, namespace_name;
  };

  // Parses kubeconfig YAML; relative file paths are resolved against base_dir.
  static Result<Kubeconfig> Parse(std::string_view yaml, const std::string& base_dir);
  static Result<Kubeconfig> LoadFile(const std::string& path);
  // Loads and merges several files in order (KUBECONFIG semantics).
  static Result<Kubeconfig> LoadFiles(const std::vector<std::string>& paths);

  void MergeFrom(const Kubeconfig& later);

  // Resolves a context (the current one when `context` is empty) into a
  // RestConfig, reading any referenced certificate and key files.
  Result<RestConfig> ToRestConfig(std::string_view context = "") const;

  const std::string& current_context() const { return current_context_; }

 private:
  std::map<std::string, Cluster> clusters_;
  std::map<std::string, User> users_;
  std::map<std::string, Context> contexts_;
  std::string current_context_;
  std::string origin_;  // file name(s), for messages
};

}  // namespace kube
