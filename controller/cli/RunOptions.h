#pragma once

#include <string>
#include <vector>

#include "controller/app/Features.h"
#include "src/base/Result.h"
#include "src/cache/WatchListMode.h"
#include "src/flags/FlagSet.h"
#include "src/manager/ManagerOptions.h"

namespace dra::cli {

// Everything `run` takes from its flags, validated before any configuration
// is loaded, so a usage error is never hidden behind a kubeconfig error.
struct RunOptions {
  std::string kubeconfig;
  std::string context;
  std::string log_level;
  kube::ManagerOptions manager;
  // How informers fill their caches (--watch-list=auto|on|off).
  kube::WatchListMode watch_list = kube::WatchListMode::kAuto;
  // Why each feature --controllers leaves out is off (logged at start).
  std::vector<std::string> features_off;
  // Their names (dra_controller_feature_enabled says NotSelected).
  std::vector<std::string> features_not_selected;

  // Declares run's own flags and each feature's on `flags`.
  static void Declare(kube::FlagSet& flags, const app::FeatureList& features);
  // run's own flags only (client, servers, logging, leader election).
  static void DeclareOwn(kube::FlagSet& flags);
  // Reads parsed flags, run's own and, into each feature, the feature's, and
  // removes from `features` those --controllers turns off; an error is a
  // usage error (exit 2).
  static kube::Result<RunOptions> FromFlags(const kube::FlagSet& flags, app::FeatureList& features);
};

// ":8080", "127.0.0.1:0", "[::1]:8080", "0" (disabled): a port in 0..65535
// after the last colon; anything else is a usage error naming the flag.
kube::Status ValidateBindAddress(const std::string& flag, const std::string& address);

}  // namespace dra::cli
