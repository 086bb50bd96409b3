#include "src/events/EventRecorderMetrics.h"

#include <prometheus/counter.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

const char* ResultLabel(EventRecorderMetrics::Outcome outcome) {
  switch (outcome) {
    case EventRecorderMetrics::Outcome::kCreated:
      return "created";
    case EventRecorderMetrics::Outcome::kPatched:
      return "patched";
    case EventRecorderMetrics::Outcome::kSpamFiltered:
      return "spam_filtered";
    case EventRecorderMetrics::Outcome::kQueueFull:
      return "queue_full";
    case EventRecorderMetrics::Outcome::kDroppedOnStop:
      return "dropped_on_stop";
    case EventRecorderMetrics::Outcome::kWriteError:
      return "error";
  }
  return "unknown";
}

}  // namespace

EventRecorderMetrics::EventRecorderMetrics(std::shared_ptr<prometheus::Registry> registry)
    : registry_(std::move(registry)) {
  if (!registry_) return;
  auto family = MetricFamilyCache::Counter(
      registry_, "event_recorder_events_total",
      "Kubernetes Events recorded, by event type and what became of them.", {"type", "result"});
  if (family.ok()) {
    family_ = *family;
  } else {
    // A registry that refuses the name must not stop the recorder.
    spdlog::error("events: not exporting event_recorder_events_total: {}",
                  family.status().ToString());
  }
}

void EventRecorderMetrics::Count(const std::string& event_type, Outcome outcome) {
  counts_[static_cast<size_t>(outcome)].fetch_add(1, std::memory_order_relaxed);
  if (family_ != nullptr) {
    family_->Add({{"type", event_type}, {"result", ResultLabel(outcome)}}).Increment();
  }
}

EventRecorderCounters EventRecorderMetrics::Snapshot() const {
  auto get = [this](Outcome o) {
    return counts_[static_cast<size_t>(o)].load(std::memory_order_relaxed);
  };
  EventRecorderCounters c;
  c.created = get(Outcome::kCreated);
  c.patched = get(Outcome::kPatched);
  c.dropped_by_spam_filter = get(Outcome::kSpamFiltered);
  c.dropped_queue_full = get(Outcome::kQueueFull);
  c.dropped_on_stop = get(Outcome::kDroppedOnStop);
  c.write_errors = get(Outcome::kWriteError);
  return c;
}

}  // namespace kube
