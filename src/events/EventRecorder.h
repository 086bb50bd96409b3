#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "src/base/BackgroundThread.h"
#include "src/base/Clock.h"
#include "src/client/RestClient.h"
#include "src/events/EventCorrelator.h"
#include "src/events/EventQueue.h"
#include "src/events/EventRecorderMetrics.h"
#include "src/events/EventWriter.h"
#include "src/events/ObjectReference.h"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace kube {

inline constexpr char kEventTypeNormal[] = "Normal";
inline constexpr char kEventTypeWarning[] = "Warning";

struct EventRecorderOptions {
  // source.host and reportingInstance; the machine's host name when empty.
  std::string host;
  // Distinct Event objects waiting to be written; more are dropped and counted.
  size_t queue_capacity = 1000;
  EventCorrelatorOptions correlator;
  // Stamps each occurrence (WallNow) and times the flush; null: RealClock.
  std::shared_ptr<Clock> clock;
  // If set, event_recorder_events_total{type,result} is registered here.
  std::shared_ptr<prometheus::Registry> registry;
};

// Records Kubernetes Events (core/v1) about objects without ever blocking the
// caller on the API: Event() correlates the occurrence in memory (see
// EventCorrelator: aggregation, deduplication, spam filter) and queues the
// resulting write; one background thread performs the writes. Nothing is
// retried beyond what RestClient does: a lost write is repaired by the next
// occurrence of the same event. Thread-safe.
class EventRecorder {
 public:
  // `component` names the reporter in source.component and reportingComponent,
  // e.g. "my-controller".
  EventRecorder(std::shared_ptr<RestClient> client, std::string component,
                EventRecorderOptions options = {});
  ~EventRecorder();  // Stop() with its default timeout

  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  // Starts the writer thread; events recorded earlier wait in the queue until
  // then. Starting twice is harmless; a stopped recorder cannot start again.
  Status Start();
  // Refuses new events, writes what is queued until `flush_timeout` passes,
  // drops (and counts) the rest, then waits for the write in flight and joins
  // the thread. Idempotent.
  void Stop(std::chrono::milliseconds flush_timeout = std::chrono::seconds(5));

  // `type` is kEventTypeNormal or kEventTypeWarning; `reason` a short
  // UpperCamelCase word; `message` human-readable (cut to 1024 bytes).
  // Events of other types are refused with an error log.
  void Event(const ObjectReference& object, const std::string& type, const std::string& reason,
             const std::string& message);

  EventRecorderCounters counters() const { return metrics_.Snapshot(); }

  // `message` as Event() stores it (cut to 1024 bytes on a UTF-8 boundary).
  static std::string StoredMessage(const std::string& message);

 private:
  void Run();
  void WriteOne(const CorrelatedEvent& event);
  void ReportWrite(const CorrelatedEvent& event, const Result<EventWriter::Outcome>& outcome);
  void Enqueue(CorrelatedEvent event);
  void DropQueued();

  std::shared_ptr<Clock> clock_;
  EventRecorderMetrics metrics_;
  EventWriter writer_;
  EventQueue queue_;

  std::mutex correlator_mu_;
  EventCorrelator correlator_;

  std::mutex lifecycle_mu_;
  bool started_ = false;
  bool stopped_ = false;
  BackgroundThread writer_thread_;

  // Log throttles: one line per episode instead of one per event.
  std::atomic<bool> queue_full_logged_{false};
  std::atomic<bool> invalid_type_logged_{false};
  bool writes_failing_ = false;  // writer thread only
};

}  // namespace kube
