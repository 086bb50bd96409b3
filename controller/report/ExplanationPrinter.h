#pragma once

#include <string>

#include "controller/extended/PodExplanation.h"

namespace dra::report {

// Renders a PodExplanation for `explain pod`, as text or JSON (the controller's
// Event says it in one line: extended/ExplanationEvent).
class ExplanationPrinter {
 public:
  static std::string Text(const extended::PodExplanation& e);
  static std::string Json(const extended::PodExplanation& e);
  static std::string ReasonName(extended::NodeVerdict::Reason reason);
};

}  // namespace dra::report
