#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/events/EventCorrelator.h"

namespace kube {

// The bounded hand-off between threads that record events and the one thread
// that writes them. Writes of the same Event object coalesce while they wait:
// only its newest state is written, with POST if any of them was a POST.
class EventQueue {
 public:
  enum class PushResult { kQueued, kCoalesced, kFull, kClosed };

  explicit EventQueue(size_t capacity);

  // Never blocks on the consumer.
  PushResult Push(CorrelatedEvent event);
  // Waits for the next write; nullopt once the queue is closed and empty.
  std::optional<CorrelatedEvent> Pop();
  // Refuses further pushes; Pop still hands out what is queued.
  void Close();
  // Waits until nothing is queued or `deadline` passes; true if empty.
  bool WaitUntilEmpty(std::chrono::steady_clock::time_point deadline);
  // Removes and returns everything still queued.
  std::vector<CorrelatedEvent> TakeAll();

 private:
  static std::string KeyOf(const CorrelatedEvent& event);

  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<std::string> order_;                             // keys, oldest first
  std::unordered_map<std::string, CorrelatedEvent> pending_;  // by key
  bool closed_ = false;
};

}  // namespace kube
