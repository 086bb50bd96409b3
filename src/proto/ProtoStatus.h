#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace kube {

// metav1.Status read from its protobuf message (an error answer or the
// object of a watch ERROR event): what a caller needs to name the failure.
struct ProtoStatus {
  struct Cause {
    std::string field;
    std::string message;
  };

  int32_t code = 0;  // the HTTP status code
  std::string reason;
  std::string message;
  std::vector<Cause> causes;

  // `message` is the Status message itself (the envelope removed).
  static Result<ProtoStatus> Decode(std::string_view message);
};

}  // namespace kube
