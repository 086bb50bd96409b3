#pragma once

#include <string>

#include "controller/extended/PodExplanation.h"

namespace dra::extended {

// Renders a PodExplanation for `explain pod` (text or JSON) and as the one-line
// message of the controller's ExtendedResourceUnschedulable Event.
class ExplanationPrinter {
 public:
  static std::string Text(const PodExplanation& e);
  static std::string Json(const PodExplanation& e);
  // Summary, notes and the scheduler's own message, for an Event (<= 1024 bytes).
  static std::string EventMessage(const PodExplanation& e);
  static std::string ReasonName(NodeVerdict::Reason reason);
};

}  // namespace dra::extended
