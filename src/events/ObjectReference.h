#pragma once

#include <string>

namespace kube {

// The object an Event is about (core/v1 ObjectReference, the Event's
// involvedObject). Leave namespace_name empty for cluster-scoped objects.
struct ObjectReference {
  std::string api_version;
  std::string kind;
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;
};

}  // namespace kube
