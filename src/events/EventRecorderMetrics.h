#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Counter;
}  // namespace prometheus

namespace kube {

// What happened to recorded events, summed over event types.
struct EventRecorderCounters {
  uint64_t created = 0;                 // POSTed as a new Event object
  uint64_t patched = 0;                 // PATCHed into an existing Event object
  uint64_t dropped_by_spam_filter = 0;  // over the per-object rate
  uint64_t dropped_queue_full = 0;      // the write queue was full
  uint64_t dropped_on_stop = 0;         // recorded after Stop, or still queued at its deadline
  uint64_t write_errors = 0;            // the API refused the write or could not be reached

  uint64_t written() const { return created + patched; }
};

// Counts outcomes for tests and, given a registry, exports them as
// event_recorder_events_total{type,result}. Thread-safe.
class EventRecorderMetrics {
 public:
  enum class Outcome { kCreated, kPatched, kSpamFiltered, kQueueFull, kDroppedOnStop, kWriteError };

  // `registry` may be null: counters are then only kept in memory.
  explicit EventRecorderMetrics(std::shared_ptr<prometheus::Registry> registry);

  void Count(const std::string& event_type, Outcome outcome);
  EventRecorderCounters Snapshot() const;

 private:
  static constexpr size_t kOutcomes = 6;

  std::array<std::atomic<uint64_t>, kOutcomes> counts_{};
  std::shared_ptr<prometheus::Registry> registry_;  // keeps family_ alive
  prometheus::Family<prometheus::Counter>* family_ = nullptr;
};

}  // namespace kube
