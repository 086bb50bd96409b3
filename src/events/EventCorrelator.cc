#include "src/events/EventCorrelator.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>

namespace kube {
namespace {

constexpr char kKeySeparator = '\x1f';
constexpr size_t kMaxNameLength = 253;
constexpr std::string_view kCombinedPrefix = "(combined from similar events): ";

std::string JoinKey(std::initializer_list<std::string_view> parts) {
  std::string key;
  for (auto part : parts) {
    key.append(part);
    key.push_back(kKeySeparator);
  }
  return key;
}

std::string ObjectKey(const ObjectReference& o) {
  return JoinKey({o.api_version, o.kind, o.namespace_name, o.name, o.uid});
}

std::string GroupKey(const RecordedEvent& e) {
  return JoinKey({ObjectKey(e.object), e.type, e.reason});
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// RFC 1123 subdomain, which is what Event names must be.
bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  size_t label_start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] != '.') {
      if (!IsLowerAlnum(s[i]) && s[i] != '-') return false;
      continue;
    }
    if (i == label_start || !IsLowerAlnum(s[label_start]) || !IsLowerAlnum(s[i - 1])) return false;
    label_start = i + 1;
  }
  return true;
}

std::string Hex(uint64_t value, int min_digits = 1) {
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%0*llx", min_digits,
                static_cast<unsigned long long>(value));
  return buffer;
}

// 32 hex digits, for objects whose name cannot prefix an Event name.
std::string RandomName() {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  return Hex(rng(), 16) + Hex(rng(), 16);
}

uint64_t UnixNanos(std::chrono::system_clock::time_point t) {
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  return nanos > 0 ? static_cast<uint64_t>(nanos) : 0;
}

}  // namespace

EventCorrelator::EventCorrelator(EventCorrelatorOptions options)
    : options_(options),
      groups_(options.cache_entries),
      occurrences_(options.cache_entries),
      spam_buckets_(options.cache_entries) {}

std::optional<CorrelatedEvent> EventCorrelator::Correlate(const RecordedEvent& event) {
  std::string group_key = GroupKey(event);
  bool combine = ShouldCombine(group_key, event);
  std::string key =
      combine ? JoinKey({"combined", group_key}) : JoinKey({"single", group_key, event.message});
  Occurrences& seen = occurrences_.GetOrCreate(key);
  Count(seen, event);
  if (!PassesSpamFilter(event)) return std::nullopt;
  CorrelatedEvent correlated =
      Describe(seen, event, combine ? std::string(kCombinedPrefix) + event.message : event.message);
  seen.submitted = true;
  return correlated;
}

bool EventCorrelator::ShouldCombine(const std::string& group_key, const RecordedEvent& event) {
  SimilarGroup& group = groups_.GetOrCreate(group_key);
  if (event.time - group.last_seen > options_.aggregation_window) group = SimilarGroup{};
  group.last_seen = std::max(group.last_seen, event.time);
  if (group.combining) return true;
  group.messages.insert(event.message);
  if (group.messages.size() < options_.max_similar_messages) return false;
  // From here on every event of the group is combined, so the messages are no longer needed.
  group.combining = true;
  group.messages.clear();
  return true;
}

void EventCorrelator::Count(Occurrences& seen, const RecordedEvent& event) {
  if (seen.count == 0) {
    seen.name = NewEventName(event.object.name, event.time);
    seen.first_timestamp = event.time;
  }
  if (seen.count < std::numeric_limits<int32_t>::max()) ++seen.count;
}

CorrelatedEvent EventCorrelator::Describe(const Occurrences& seen, const RecordedEvent& event,
                                          std::string message) const {
  CorrelatedEvent out;
  out.namespace_name =
      event.object.namespace_name.empty() ? "default" : event.object.namespace_name;
  out.name = seen.name;
  out.object = event.object;
  out.type = event.type;
  out.reason = event.reason;
  out.message = std::move(message);
  out.first_timestamp = seen.first_timestamp;
  out.last_timestamp = event.time;
  out.count = seen.count;
  out.is_new = !seen.submitted;
  return out;
}

bool EventCorrelator::PassesSpamFilter(const RecordedEvent& event) {
  auto& bucket = spam_buckets_.GetOrCreate(JoinKey({ObjectKey(event.object), event.type}));
  auto now = event.time.time_since_epoch();
  if (!bucket) bucket.emplace(options_.spam_burst, options_.spam_refill_interval, now);
  return bucket->TryTake(now);
}

std::string EventCorrelator::NewEventName(const std::string& object_name,
                                          std::chrono::system_clock::time_point now) {
  // The clock's nanoseconds like client-go, bumped so that names stay unique
  // even when the clock repeats a reading.
  last_name_suffix_ = std::max(UnixNanos(now), last_name_suffix_ + 1);
  std::string name = object_name + "." + Hex(last_name_suffix_);
  return IsDnsSubdomain(name) ? name : RandomName();
}

}  // namespace kube
