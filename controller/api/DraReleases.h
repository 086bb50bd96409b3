#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::api {

// What a Kubernetes release offers of the DRA features dra-controller's jobs
// use: the one table of versions in the code (README's compatibility table
// and `check`'s rows are made from it). Read from each release's
// pkg/features/kube_features.go and pkg/controlplane/instance.go; a running
// cluster is asked too (API discovery, a server-side dry run) before a
// feature relies on it, since a gate can be turned on or off.
enum class DraCapability {
  kDeviceTaintRules,      // DeviceTaintRule: device health's taints
  kDriverTaints,          // ResourceSlice device taints a driver publishes
  kExtendedResources,     // DeviceClass spec.extendedResourceName
  kHealthReports,         // Pod status allocatedResourcesStatus (the kubelet's reports)
  kPartitionableDevices,  // ResourceSlice sharedCounters / consumesCounters
  kConsumableCapacity,    // devices shared by capacity
};

// One capability in one release.
struct CapabilityInRelease {
  std::vector<std::string> gates;  // the feature gates that must be on
  std::string maturity;            // "alpha", "beta", "GA"
  bool on_by_default = false;      // every gate, and the API version, on by default
  std::string runtime_config;      // the kube-apiserver --runtime-config it needs, or ""
  std::string api_version;         // where its API is served ("resource.k8s.io/v1beta2"), or ""
};

class DraReleases {
 public:
  static constexpr int kOldestMinor = 34;  // resource.k8s.io/v1 is served from 1.34 on
  static constexpr int kNewestMinor = 37;
  static const std::vector<DraCapability>& All();
  // The minor of "v1.36.3", "v1.36.3-gke.100"; nullopt for another form.
  static std::optional<int> Minor(std::string_view git_version);
  // Releases newer than the newest known are read as the newest.
  static CapabilityInRelease In(DraCapability capability, int minor);
  static std::string Name(DraCapability capability);  // "device taint rules"
  // "on by default" or what to turn on: "feature gate DRADeviceTaintRules
  // (beta, off by default) on kube-apiserver, kube-scheduler and
  // kube-controller-manager, and --runtime-config=resource.k8s.io/v1beta2=true".
  static std::string HowToEnable(DraCapability capability, int minor);
  // Whether kube-controller-manager's device-taint eviction controller evicts
  // a Pod for a NoExecute taint on a device of its implicit extended-resource
  // claim (pod.status.extendedResourceClaimStatus). Up to v1.36.3 it looks only
  // at pod.spec.resourceClaims (pkg/controller/devicetainteviction/
  // device_taint_eviction.go:1581, podEvictionTime; likewise v1.34.4 and
  // v1.35.4); v1.37.2 takes the Pod's claims from resourceclaim.PodClaims
  // (dynamic-resource-allocation resourceclaim/pod.go:35), which includes it.
  static bool EvictsExtendedResourcePods(int minor);
};

}  // namespace dra::api
