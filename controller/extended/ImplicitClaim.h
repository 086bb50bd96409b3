#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dra::extended {

// One device request of the claim the scheduler makes for a Pod's extended
// resources: `exactCount` devices of `device_class`.
struct ImplicitRequest {
  std::string name;  // "container-<i>-request-<j>"
  std::string device_class;
  int64_t count = 0;

  friend bool operator==(const ImplicitRequest&, const ImplicitRequest&) = default;
};

// pod.status.extendedResourceClaimStatus.requestMappings[] as the scheduler writes it.
struct ImplicitMapping {
  std::string container_name;
  std::string resource_name;
  std::string request_name;

  friend bool operator==(const ImplicitMapping&, const ImplicitMapping&) = default;
};

// A container's request the scheduler ignores: a quantity that is not a
// whole number (the apiserver refuses those for extended resources; manifests
// can still hold them).
struct SkippedRequest {
  std::string container_name;
  std::string resource_name;
  std::string quantity;
};

// The implicit ResourceClaim's requests for one Pod on one node.
struct ImplicitClaim {
  std::vector<ImplicitRequest> requests;  // sorted by name, as the scheduler sorts them
  std::vector<ImplicitMapping> mappings;
  std::vector<SkippedRequest> skipped;

  bool empty() const { return requests.empty() && mappings.empty(); }
};

}  // namespace dra::extended
