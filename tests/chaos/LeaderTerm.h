#pragma once

#include <optional>
#include <string>

namespace dra::testing {

// When one replica led, from its log: from its "became leader of" line to
// its last line (a replica leads at most once: it exits when it loses the
// lease). Times are UTC seconds, "YYYY-MM-DDTHH:MM:SS", so they compare as
// strings with an Event's firstTimestamp cut the same way.
struct LeaderTerm {
  std::string from;
  std::string to;

  static std::optional<LeaderTerm> FromLog(const std::string& log);
  bool Contains(const std::string& second) const { return from <= second && second <= to; }
  // Event times have whole seconds: in the second a term starts or ends, an
  // Event may be the previous or the next leader's, so only the seconds
  // strictly inside the term are attributed to it.
  bool StrictlyInside(const std::string& second) const { return from < second && second < to; }
  // "2026-12-01T03:02:20.409Z ..." or "2026-12-01T03:02:20Z" -> "2026-12-01T03:02:20".
  static std::string Second(const std::string& timestamp) { return timestamp.substr(0, 19); }
};

}  // namespace dra::testing
