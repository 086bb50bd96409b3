#pragma once

#include <string>
#include <vector>

#include "src/base/Status.h"
#include "tests/support/TestCluster.h"

namespace dra::testing {

// A resource.k8s.io/v1 DeviceClass (JSON) serving `extended_resource` for the
// devices `cel` selects.
std::string DeviceClassManifest(const std::string& name, const std::string& extended_resource,
                                const std::string& cel);

// The CEL selector of the fake fleet's GPUs of one model
// (hack/fake-gpu-fleet.sh: driver gpu.example.com, attribute "model").
std::string FakeGpuModelSelector(const std::string& model);

// A pause Pod (JSON) asking for `count` of `extended_resource` in its limits.
std::string ExtendedResourcePodManifest(const std::string& name, const std::string& ns,
                                        const std::string& extended_resource, int count = 1);

// Publishes / removes fake GPU nodes ("node:count:memory:model" each) with
// hack/fake-gpu-fleet.sh.
kube::Status ApplyFakeFleet(TestCluster& cluster, const std::vector<std::string>& nodes);
void RemoveFakeFleet(TestCluster& cluster, const std::vector<std::string>& nodes);

}  // namespace dra::testing
