#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "tests/bench/fleet/FleetSizes.h"

namespace dra::bench {

// The generated fleet: per collection path (e.g. /api/v1/pods) the JSON of
// its objects, in list order.
struct Fleet {
  std::map<std::string, std::vector<std::string>> items;  // collection path -> objects
  size_t objects = 0;

  // The nodes with their slices, 3 DeviceClasses, the bound Pods with their implicit
  // claims and the DeviceHealths (state Unknown), at the sizes in `s`.
  static Fleet Make(const FleetSizes& s);

  static constexpr int kNamespaces = 50;
  static constexpr const char* kPods = "/api/v1/pods";
  static constexpr const char* kHealths = "/apis/dra-controller.dev/v1alpha1/devicehealths";
  static constexpr const char* kRules = "/apis/resource.k8s.io/v1/devicetaintrules";

 private:
  void AddPods(const FleetSizes& s);
};

}  // namespace dra::bench
