#pragma once

#include <string_view>

#include "controller/api/PodView.h"
#include "src/base/Result.h"

namespace dra::api {

// Projects a core/v1 Pod's protobuf message into a PodView: the same fields
// and rules as PodView::FromJson, read by field number (k8s.io/api
// core/v1/generated.proto). Unknown fields are passed over; a malformed
// message is an error.
class PodProtoDecoder {
 public:
  static kube::Result<PodView> Decode(std::string_view pod);
};

}  // namespace dra::api
