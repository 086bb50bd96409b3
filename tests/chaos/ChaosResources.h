#pragma once

#include <string>
#include <vector>

#include "src/client/ResourceType.h"

namespace dra::testing::chaos {

// The API resources the chaos run writes and checks.
inline const kube::ResourceType kDeviceHealths{"dra-controller.dev", "v1alpha1", "devicehealths",
                                               false, "DeviceHealth"};
inline const kube::ResourceType kDeviceTaintRules{"resource.k8s.io", "v1", "devicetaintrules",
                                                  false, "DeviceTaintRule"};
inline const kube::ResourceType kResourceSlices{"resource.k8s.io", "v1", "resourceslices", false,
                                                "ResourceSlice"};
inline const kube::ResourceType kDeviceClasses{"resource.k8s.io", "v1", "deviceclasses", false,
                                               "DeviceClass"};
inline const kube::ResourceType kPods{"", "v1", "pods", true, "Pod"};
inline const kube::ResourceType kEvents{"", "v1", "events", true, "Event"};

// Every object the run creates carries this label (for the clean-up).
inline constexpr char kLabelKey[] = "dra-controller.dev/chaos";
inline constexpr char kLabelSelector[] = "dra-controller.dev/chaos=true";
inline constexpr char kDriver[] = "gpu.example.com";
// The extended resource the fleet's class serves and the driver's Pods ask for.
inline constexpr char kExtendedResource[] = "example.com/chaos-gpu";
inline constexpr char kClassName[] = "chaos-gpu.example.com";
inline constexpr char kModel[] = "gpu-chaos";
inline constexpr char kExtraModel[] = "gpu-chaos-extra";

// The fake GPU fleet: "chaos-node-<i>" with `gpus` GPUs each
// (hack/fake-gpu-fleet.sh node specs).
struct Fleet {
  int nodes = 4;
  int gpus = 4;
  std::vector<std::string> NodeSpecs() const {
    std::vector<std::string> specs;
    for (int i = 0; i < nodes; ++i) {
      specs.push_back(NodeName(i) + ":" + std::to_string(gpus) + ":80Gi:" + kModel);
    }
    return specs;
  }
  static std::string NodeName(int i) { return "chaos-node-" + std::to_string(i); }
};

}  // namespace dra::testing::chaos
