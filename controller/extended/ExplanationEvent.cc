#include "controller/extended/ExplanationEvent.h"

namespace dra::extended {

std::string ExplanationEvent::Message(const PodExplanation& e) {
  std::string out = e.summary.empty() ? "no node judged" : e.summary;
  for (const auto& note : e.notes) {
    out += ". " + note;
    if (out.ends_with('.')) out.pop_back();
  }
  if (!e.scheduler_message.empty()) out += ". Scheduler: " + e.scheduler_message;
  if (out.size() > 1024) out = out.substr(0, 1021) + "...";
  return out;
}

}  // namespace dra::extended
