#include "src/config/ConfigLoader.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include "src/config/InClusterConfig.h"
#include "src/config/Kubeconfig.h"

namespace kube {
namespace {

std::vector<std::string> SplitPaths(const std::string& list) {
  std::vector<std::string> paths;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ':')) {
    if (!item.empty()) paths.push_back(item);
  }
  return paths;
}

Result<RestConfig> FromFiles(const std::vector<std::string>& paths, const std::string& context) {
  auto kubeconfig = Kubeconfig::LoadFiles(paths);
  if (!kubeconfig.ok()) return kubeconfig.status();
  return kubeconfig->ToRestConfig(context);
}

}  // namespace

ConfigOptions ConfigLoader::FromEnvironment(std::string kubeconfig_flag, std::string context) {
  ConfigOptions options;
  options.kubeconfig_flag = std::move(kubeconfig_flag);
  options.context = std::move(context);
  // NOLINTBEGIN(concurrency-mt-unsafe): getenv races only with setenv, which we never call.
  if (const char* env = std::getenv("KUBECONFIG")) options.kubeconfig_env = env;
  if (const char* home = std::getenv("HOME")) options.home = home;
  // NOLINTEND(concurrency-mt-unsafe)
  return options;
}

Result<RestConfig> ConfigLoader::Load(const ConfigOptions& options) {
  if (!options.kubeconfig_flag.empty())
    return FromFiles({options.kubeconfig_flag}, options.context);
  std::vector<std::string> env_paths = SplitPaths(options.kubeconfig_env);
  if (!env_paths.empty()) return FromFiles(env_paths, options.context);
  if (InClusterConfig::Available(options.service_account_dir)) {
    return InClusterConfig::Load(options.service_account_dir);
  }
  std::string home_config = options.home.empty() ? "" : options.home + "/.kube/config";
  if (!home_config.empty() && std::filesystem::exists(home_config)) {
    return FromFiles({home_config}, options.context);
  }
  return Status(StatusCode::kUnavailable,
                "no Kubernetes configuration found: pass --kubeconfig, set KUBECONFIG, run in a "
                "Pod with a service account, or create ~/.kube/config");
}

}  // namespace kube
