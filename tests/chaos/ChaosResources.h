#pragma once

#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceSlice.h"
#include "src/client/ResourceType.h"

namespace dra::testing::chaos {

// The API resources the chaos run writes and checks.
inline const kube::ResourceType& kDeviceHealths = api::DeviceHealth::kResource;
inline const kube::ResourceType& kDeviceTaintRules = api::DeviceTaintRule::kResource;
inline const kube::ResourceType& kResourceSlices = api::ResourceSlice::kResource;
inline const kube::ResourceType& kDeviceClasses = api::DeviceClass::kResource;
inline const kube::ResourceType& kPods = api::PodView::kResource;
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
