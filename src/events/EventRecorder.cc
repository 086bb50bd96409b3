#include "src/events/EventRecorder.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <climits>
#include <system_error>

#include "src/base/RealClock.h"
#include "src/base/Utf8Text.h"

namespace kube {
namespace {

// The events.k8s.io limit for a note; keeps a runaway message from bloating etcd.
constexpr size_t kMaxMessageBytes = 1024;

std::string LocalHostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "";
  return name;
}

std::string Truncated(const std::string& message) {
  return Utf8Text::Truncate(message, kMaxMessageBytes);
}

bool IsKnownType(const std::string& type) {
  return type == kEventTypeNormal || type == kEventTypeWarning;
}

EventSource SourceFor(std::string component, const std::string& host) {
  return {std::move(component), host.empty() ? LocalHostName() : host};
}

}  // namespace

std::string EventRecorder::StoredMessage(const std::string& message) { return Truncated(message); }

EventRecorder::EventRecorder(std::shared_ptr<RestClient> client, std::string component,
                             EventRecorderOptions options)
    : clock_(options.clock ? std::move(options.clock) : RealClock::Shared()),
      metrics_(options.registry),
      writer_(std::move(client), SourceFor(std::move(component), options.host)),
      queue_(options.queue_capacity),
      correlator_(options.correlator) {}

EventRecorder::~EventRecorder() { Stop(); }

Status EventRecorder::Start() {
  std::lock_guard lock(lifecycle_mu_);
  if (stopped_) return Status(StatusCode::kInvalidArgument, "event recorder already stopped");
  if (started_) return Status::Ok();
  if (!writer_thread_.Start([this] { Run(); })) {
    return Status(StatusCode::kInternal, "cannot start the event writer");
  }
  started_ = true;
  return Status::Ok();
}

void EventRecorder::Stop(std::chrono::milliseconds flush_timeout) {
  std::lock_guard lock(lifecycle_mu_);
  if (stopped_) return;
  stopped_ = true;
  queue_.Close();
  if (started_) queue_.WaitUntilEmpty(std::chrono::steady_clock::now() + flush_timeout);
  DropQueued();
  writer_thread_.Stop();
}

void EventRecorder::Event(const ObjectReference& object, const std::string& type,
                          const std::string& reason, const std::string& message) {
  if (!IsKnownType(type)) {
    if (!invalid_type_logged_.exchange(true)) {
      spdlog::error("events: refusing event type \"{}\" (reason {}) for {}/{}", type, reason,
                    object.kind, object.name);
    }
    return;
  }
  RecordedEvent recorded{object, type, reason, Truncated(message), clock_->WallNow()};
  std::optional<CorrelatedEvent> correlated;
  {
    std::lock_guard lock(correlator_mu_);
    correlated = correlator_.Correlate(recorded);
  }
  if (!correlated) {
    metrics_.Count(type, EventRecorderMetrics::Outcome::kSpamFiltered);
    return;
  }
  Enqueue(std::move(*correlated));
}

void EventRecorder::Enqueue(CorrelatedEvent event) {
  std::string type = event.type;
  switch (queue_.Push(std::move(event))) {
    case EventQueue::PushResult::kQueued:
    case EventQueue::PushResult::kCoalesced:
      if (queue_full_logged_.load(std::memory_order_relaxed)) queue_full_logged_ = false;
      return;
    case EventQueue::PushResult::kFull:
      metrics_.Count(type, EventRecorderMetrics::Outcome::kQueueFull);
      if (!queue_full_logged_.exchange(true)) {
        spdlog::warn("events: write queue full; dropping events until it drains");
      }
      return;
    case EventQueue::PushResult::kClosed:
      metrics_.Count(type, EventRecorderMetrics::Outcome::kDroppedOnStop);
      return;
  }
}

void EventRecorder::DropQueued() {
  auto dropped = queue_.TakeAll();
  for (const auto& event : dropped) {
    metrics_.Count(event.type, EventRecorderMetrics::Outcome::kDroppedOnStop);
  }
  if (!dropped.empty()) {
    spdlog::warn("events: stopped with {} event writes pending; dropped them", dropped.size());
  }
}

void EventRecorder::Run() {
  while (auto event = queue_.Pop()) WriteOne(*event);
}

void EventRecorder::WriteOne(const CorrelatedEvent& event) {
  // The thread must outlive anything a write can raise (allocation, JSON).
  Result<EventWriter::Outcome> outcome = Status(StatusCode::kInternal, "not written");
  try {
    outcome = writer_.Write(event);
  } catch (const std::exception& e) {
    outcome = Status(StatusCode::kInternal, std::string("writing event: ") + e.what());
  } catch (...) {
    outcome = Status(StatusCode::kInternal, "writing event: unknown exception");
  }
  ReportWrite(event, outcome);
}

void EventRecorder::ReportWrite(const CorrelatedEvent& event,
                                const Result<EventWriter::Outcome>& outcome) {
  if (outcome.ok()) {
    metrics_.Count(event.type, *outcome == EventWriter::Outcome::kCreated
                                   ? EventRecorderMetrics::Outcome::kCreated
                                   : EventRecorderMetrics::Outcome::kPatched);
    if (writes_failing_) spdlog::info("events: writing events again");
    writes_failing_ = false;
    return;
  }
  metrics_.Count(event.type, EventRecorderMetrics::Outcome::kWriteError);
  std::string what = event.namespace_name + "/" + event.name + " (" + event.reason + ")";
  if (writes_failing_) {
    spdlog::debug("events: cannot write {}: {}", what, outcome.status().ToString());
  } else {
    spdlog::warn("events: cannot write {}: {}; further failures are logged at debug level", what,
                 outcome.status().ToString());
  }
  writes_failing_ = true;
}

}  // namespace kube
