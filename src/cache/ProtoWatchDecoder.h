#pragma once

#include <string_view>

#include "src/base/Result.h"
#include "src/cache/WatchDecoder.h"

namespace kube {

// Decodes the frames of a protobuf watch stream: each a metav1.WatchEvent
// (no envelope) whose object is a RawExtension holding the enveloped object,
// as kube-apiserver's watch encoder writes them. Nothing is copied: the
// event's object is a view into the frame.
class ProtoWatchDecoder {
 public:
  static Result<RawWatchEvent> Decode(std::string_view frame);
  // Reads type and metadata of a frame Decode() refused, for the log and to
  // move past it.
  static Result<SalvagedObject> Salvage(std::string_view frame);
  // The Status carried by an ERROR event's object (a metav1.Status message).
  static Status ErrorEventStatus(std::string_view status_message);
};

}  // namespace kube
