#pragma once

#include <string>

#include "controller/extended/PodExplanation.h"

namespace dra::extended {

// A PodExplanation as the one-line message of the controller's
// ExtendedResourceUnschedulable Event (`explain pod` prints it in full:
// report/ExplanationPrinter).
class ExplanationEvent {
 public:
  // Summary, notes and the scheduler's own message (<= 1024 bytes).
  static std::string Message(const PodExplanation& e);
};

}  // namespace dra::extended
