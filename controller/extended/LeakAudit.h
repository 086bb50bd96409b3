#pragma once

#include <optional>
#include <string>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"

namespace dra::extended {

// Whether an implicit extended-resource claim outlived its Pod, judged like
// kube-controller-manager's resource claim controller judges a claim's
// consumers: the owner Pod is gone, was replaced (another UID), or is done
// (Succeeded or Failed). Pure.
class LeakAudit {
 public:
  // The reason `claim` is leaked, or nullopt when it is not an allocated
  // implicit claim of a Pod or its Pod still needs it. `pod` is the cached
  // Pod of the owner's namespace/name, null when there is none.
  static std::optional<std::string> Why(const api::ResourceClaim& claim, const api::PodView* pod);

  // "<namespace>/<owner name>" of an implicit claim's owner Pod, or "".
  static std::string OwnerKey(const api::ResourceClaim& claim);
};

}  // namespace dra::extended
