#include "controller/api/DraReleases.h"

#include <algorithm>
#include <charconv>

namespace dra::api {
namespace {

CapabilityInRelease Alpha(std::vector<std::string> gates, std::string runtime_config = "",
                          std::string api_version = "") {
  return {std::move(gates), "alpha", false, std::move(runtime_config), std::move(api_version)};
}

CapabilityInRelease Beta(std::vector<std::string> gates, bool on, std::string runtime_config = "",
                         std::string api_version = "") {
  return {std::move(gates), "beta", on, std::move(runtime_config), std::move(api_version)};
}

CapabilityInRelease Ga(std::vector<std::string> gates, std::string api_version = "") {
  return {std::move(gates), "GA", true, "", std::move(api_version)};
}

CapabilityInRelease TaintRules(int minor) {
  if (minor <= 34) {
    return Alpha({"DRADeviceTaints"}, "resource.k8s.io/v1alpha3=true", "resource.k8s.io/v1alpha3");
  }
  if (minor == 35) {
    return Alpha({"DRADeviceTaints", "DRADeviceTaintRules"}, "resource.k8s.io/v1alpha3=true",
                 "resource.k8s.io/v1alpha3");
  }
  if (minor == 36) {
    return Beta({"DRADeviceTaintRules"}, false, "resource.k8s.io/v1beta2=true",
                "resource.k8s.io/v1beta2");
  }
  return Ga({"DRADeviceTaintRules"}, "resource.k8s.io/v1");
}

// A gate that is alpha (off) before 1.36, beta and on in 1.36, then GA from `ga_minor`.
CapabilityInRelease BetaIn36(const std::string& gate, int minor, int ga_minor) {
  if (minor < 36) return Alpha({gate});
  if (minor < ga_minor) return Beta({gate}, true);
  return Ga({gate});
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace

const std::vector<DraCapability>& DraReleases::All() {
  static const std::vector<DraCapability> kAll = {
      DraCapability::kDeviceTaintRules,     DraCapability::kDriverTaints,
      DraCapability::kExtendedResources,    DraCapability::kHealthReports,
      DraCapability::kPartitionableDevices, DraCapability::kConsumableCapacity};
  return kAll;
}

std::optional<int> DraReleases::Minor(std::string_view git_version) {
  if (git_version.rfind("v1.", 0) != 0) return std::nullopt;
  std::string_view rest = git_version.substr(3);
  int minor = 0;
  auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), minor);
  if (error != std::errc() || end == rest.data()) return std::nullopt;
  return minor;
}

CapabilityInRelease DraReleases::In(DraCapability capability, int minor) {
  minor = std::min(minor, kNewestMinor);
  switch (capability) {
    case DraCapability::kDeviceTaintRules:
      return TaintRules(minor);
    case DraCapability::kDriverTaints:
      return BetaIn36("DRADeviceTaints", minor, 37);
    case DraCapability::kExtendedResources:
      return BetaIn36("DRAExtendedResource", minor, 37);
    case DraCapability::kHealthReports:
      return BetaIn36("ResourceHealthStatus", minor, 99);
    case DraCapability::kPartitionableDevices:
      return BetaIn36("DRAPartitionableDevices", minor, 99);
    case DraCapability::kConsumableCapacity:
      return BetaIn36("DRAConsumableCapacity", minor, 99);
  }
  return {};
}

std::string DraReleases::Name(DraCapability capability) {
  switch (capability) {
    case DraCapability::kDeviceTaintRules:
      return "device taint rules";
    case DraCapability::kDriverTaints:
      return "driver-published device taints";
    case DraCapability::kExtendedResources:
      return "extended resources backed by DRA";
    case DraCapability::kHealthReports:
      return "the kubelet's device health reports";
    case DraCapability::kPartitionableDevices:
      return "partitionable devices";
    case DraCapability::kConsumableCapacity:
      return "consumable capacity";
  }
  return "";
}

std::string DraReleases::HowToEnable(DraCapability capability, int minor) {
  CapabilityInRelease in = In(capability, minor);
  if (in.on_by_default) return "on by default (" + in.maturity + ")";
  std::string how = std::string(in.gates.size() > 1 ? "feature gates " : "feature gate ") +
                    Join(in.gates, " and ") + " (" + in.maturity +
                    ", off by default) on kube-apiserver, kube-scheduler, kube-controller-manager "
                    "and the kubelet";
  if (!in.runtime_config.empty()) how += ", and --runtime-config=" + in.runtime_config;
  return how;
}

}  // namespace dra::api
