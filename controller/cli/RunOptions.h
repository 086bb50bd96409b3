#pragma once

#include <string>
#include <vector>

#include "controller/cli/FlagSet.h"
#include "controller/extended/ExtendedOptions.h"
#include "controller/health/HealthOptions.h"
#include "src/base/Result.h"
#include "src/cache/WatchListMode.h"
#include "src/manager/ManagerOptions.h"

namespace dra::cli {

// Everything `run` takes from its flags, validated before any configuration
// is loaded, so a usage error is never hidden behind a kubeconfig error.
struct RunOptions {
  std::string kubeconfig;
  std::string context;
  std::string log_level;
  kube::ManagerOptions manager;
  health::HealthOptions health;        // Device health (#9): --health-* flags
  extended::ExtendedOptions extended;  // Extended resources (#8)
  // Allocation metrics (#10): attribute names copied onto
  // dra_controller_device_info (--metrics-device-attributes).
  std::vector<std::string> metrics_device_attributes;
  // How informers fill their caches (--watch-list=auto|on|off).
  kube::WatchListMode watch_list = kube::WatchListMode::kAuto;

  // Declares run's flags on `flags`.
  static void Declare(FlagSet& flags);
  // Reads parsed flags; an error is a usage error (exit 2).
  static kube::Result<RunOptions> FromFlags(const FlagSet& flags);
};

// ":8080", "127.0.0.1:0", "[::1]:8080", "0" (disabled): a port in 0..65535
// after the last colon; anything else is a usage error naming the flag.
kube::Status ValidateBindAddress(const std::string& flag, const std::string& address);

}  // namespace dra::cli
