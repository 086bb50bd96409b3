#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kube {

// Query parameters of LIST and WATCH requests (metav1.ListOptions).
struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  int64_t limit = 0;
  std::string continue_token;
  std::string resource_version;
  std::string resource_version_match;  // "NotOlderThan" | "Exact"
  bool watch = false;
  bool allow_watch_bookmarks = false;
  bool send_initial_events = false;
  std::optional<int64_t> timeout_seconds;

  // "?labelSelector=...&limit=500", or "" when nothing is set.
  std::string ToQuery() const;
};

}  // namespace kube
