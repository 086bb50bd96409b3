#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/PodView.h"
#include "controller/extended/ImplicitClaim.h"

namespace dra::extended {

// Computes the implicit claim the v1.37.2 kube-scheduler builds for a Pod's
// extended resources on one node (createRequestsAndMappings in the scheduler's
// dynamicresources plugin):
//   - only resources mapped to a DeviceClass and served by DRA on that node
//     (node allocatable of the name is 0 or absent) take part;
//   - one request per (container, resource), named container-<i>-request-<j>:
//     i indexes initContainers ++ containers, j the resource among the
//     container's sorted resource names; exactCount is the whole-number request;
//   - non-sidecar init containers first reuse requests of long-lived containers
//     at or after their own index, and the largest of their own requests
//     stands in for all of them;
//   - requests sorted by name.
class ImplicitClaimTranslator {
 public:
  // The DeviceClass serving an extended resource name, or nullopt.
  using ClassResolver = std::function<std::optional<std::string>(std::string_view resource)>;
  // True when the node serves `resource` through DRA (not a device plugin).
  using DraOnNode = std::function<bool(std::string_view resource)>;

  static ImplicitClaim Translate(std::span<const api::PodView::Container> containers,
                                 const ClassResolver& class_for, const DraOnNode& dra_on_node);

  // The DRA-backed resource names the Pod asks for (mapped, on any node), sorted.
  static std::vector<std::string> DraResources(std::span<const api::PodView::Container> containers,
                                               const ClassResolver& class_for);
};

}  // namespace dra::extended
