#pragma once

#include <string_view>

#include "controller/api/ResourceClaim.h"
#include "src/base/Result.h"

namespace dra::api {

// Projects a resource.k8s.io/v1 ResourceClaim's protobuf message into a
// ResourceClaim: the same fields and rules as ResourceClaim::FromJson, read
// by field number (k8s.io/api resource/v1 and core/v1 generated.proto).
// Unknown fields are passed over; a malformed message is an error.
class ResourceClaimProtoDecoder {
 public:
  static kube::Result<ResourceClaim> Decode(std::string_view claim);
};

}  // namespace dra::api
