#pragma once

#include <string>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"

namespace kube {

struct ConfigOptions {
  std::string kubeconfig_flag;  // --kubeconfig
  std::string context;          // --context
  std::string kubeconfig_env;   // $KUBECONFIG (colon-separated list)
  std::string home;             // $HOME, for ~/.kube/config
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";
};

// Picks the configuration the way controller-runtime does: --kubeconfig, then
// $KUBECONFIG, then the in-cluster service account, then ~/.kube/config.
class ConfigLoader {
 public:
  static ConfigOptions FromEnvironment(std::string kubeconfig_flag, std::string context);
  static Result<RestConfig> Load(const ConfigOptions& options);
};

}  // namespace kube
