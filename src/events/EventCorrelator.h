#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "src/base/TokenBucket.h"
#include "src/events/LruCache.h"
#include "src/events/ObjectReference.h"

namespace kube {

// Defaults are client-go's (tools/record EventCorrelator).
struct EventCorrelatorOptions {
  // Per object and event type: `spam_burst` events at once, then one more
  // every `spam_refill_interval`.
  int spam_burst = 25;
  std::chrono::seconds spam_refill_interval{300};
  // Events of one object, type and reason with this many distinct messages
  // are combined into one Event until the group is quiet for
  // `aggregation_window`.
  size_t max_similar_messages = 10;
  std::chrono::seconds aggregation_window{600};
  // Bound of each internal cache (least recently used entries are forgotten).
  size_t cache_entries = 4096;
};

// One call of EventRecorder::Event.
struct RecordedEvent {
  ObjectReference object;
  std::string type;
  std::string reason;
  std::string message;
  std::chrono::system_clock::time_point time;
};

// The state an Event object on the server should have after an occurrence.
struct CorrelatedEvent {
  std::string namespace_name;
  std::string name;
  ObjectReference object;
  std::string type;
  std::string reason;
  std::string message;
  std::chrono::system_clock::time_point first_timestamp;
  std::chrono::system_clock::time_point last_timestamp;
  int32_t count = 1;
  bool is_new = true;  // no earlier occurrence was handed out for writing: POST, not PATCH
};

// Decides what an occurrence of an event does to the Event objects on the
// server, in client-go's order:
//   1. aggregation: once a group (object, type, reason) has shown
//      `max_similar_messages` distinct messages, its events go to one
//      combined Event whose message is prefixed "(combined from similar
//      events): ";
//   2. deduplication: an occurrence equal to an earlier one (same object,
//      type, reason and message, or the same combined group) updates that
//      Event: count + 1 and a new lastTimestamp;
//   3. spam filter: a token bucket per object and type drops the rest.
// Steps 1 and 2 see every occurrence, so a count written after a spell of
// filtering includes the filtered occurrences. Time comes only from the
// events themselves. Not thread-safe.
class EventCorrelator {
 public:
  explicit EventCorrelator(EventCorrelatorOptions options = {});

  // The Event to write, or nullopt if the spam filter drops the occurrence.
  std::optional<CorrelatedEvent> Correlate(const RecordedEvent& event);

 private:
  struct SimilarGroup {
    std::chrono::system_clock::time_point last_seen;
    std::unordered_set<std::string> messages;
    bool combining = false;
  };
  struct Occurrences {
    std::string name;
    std::chrono::system_clock::time_point first_timestamp;
    int32_t count = 0;
    bool submitted = false;
  };

  bool ShouldCombine(const std::string& group_key, const RecordedEvent& event);
  void Count(Occurrences& seen, const RecordedEvent& event);
  CorrelatedEvent Describe(const Occurrences& seen, const RecordedEvent& event,
                           std::string message) const;
  bool PassesSpamFilter(const RecordedEvent& event);
  std::string NewEventName(const std::string& object_name,
                           std::chrono::system_clock::time_point now);

  EventCorrelatorOptions options_;
  LruCache<SimilarGroup> groups_;
  LruCache<Occurrences> occurrences_;
  LruCache<std::optional<TokenBucket>> spam_buckets_;
  uint64_t last_name_suffix_ = 0;
};

}  // namespace kube
