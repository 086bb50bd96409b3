#pragma once

#include <string>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"

namespace kube {

// Configuration of a Pod's own service account: API server from
// KUBERNETES_SERVICE_HOST/PORT, CA and namespace from the mounted secret
// directory, and a token re-read whenever the kubelet rotates it.
class InClusterConfig {
 public:
  static constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

  static bool Available(const std::string& sa_dir = kServiceAccountDir);
  static Result<RestConfig> Load(const std::string& sa_dir = kServiceAccountDir);
};

}  // namespace kube
