#pragma once

#include "src/client/ResourceType.h"

namespace dra::extended {

// The core/v1 types the extended-resource features watch.
struct ExtendedResourceTypes {
  static inline const kube::ResourceType kNodes{"", "v1", "nodes", false, "Node"};
  static inline const kube::ResourceType kPods{"", "v1", "pods", true, "Pod"};
};

}  // namespace dra::extended
