#pragma once

#include <memory>
#include <string>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"

namespace dra::extended::leak_test {

// The scheduler's implicit claim for Pod `owner` (uid `uid`) in namespace "team".
inline std::shared_ptr<const api::ResourceClaim> ImplicitClaim(const std::string& owner,
                                                               const std::string& uid,
                                                               bool allocated = true) {
  auto claim = std::make_shared<api::ResourceClaim>();
  claim->meta.namespace_name = "team";
  claim->meta.name = owner + "-extended-resources-x";
  claim->extended_resource_claim = true;
  claim->allocated = allocated;
  claim->controller = api::ResourceClaim::OwnerReference{"Pod", owner, uid};
  return claim;
}

inline std::shared_ptr<const api::PodView> PodOf(const std::string& name, const std::string& uid,
                                                 const std::string& phase = "Running") {
  auto pod = std::make_shared<api::PodView>();
  pod->meta.namespace_name = "team";
  pod->meta.name = name;
  pod->meta.uid = uid;
  pod->phase = phase;
  return pod;
}

}  // namespace dra::extended::leak_test
