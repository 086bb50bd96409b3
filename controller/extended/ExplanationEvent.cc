#include "controller/extended/ExplanationEvent.h"

#include "src/base/Utf8Text.h"

namespace dra::extended {

std::string ExplanationEvent::Message(const PodExplanation& e) {
  std::string out = e.summary.empty() ? "no node judged" : e.summary;
  for (const auto& note : e.notes) {
    out += ". " + note;
    if (out.ends_with('.')) out.pop_back();
  }
  if (!e.scheduler_message.empty()) out += ". Scheduler: " + e.scheduler_message;
  return kube::Utf8Text::Truncate(out, 1024, "...");
}

}  // namespace dra::extended
