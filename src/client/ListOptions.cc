#include "src/client/ListOptions.h"

#include "src/client/ResourceType.h"

namespace kube {

std::string ListOptions::ToQuery() const {
  std::string query;
  auto add = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    query += query.empty() ? "?" : "&";
    query += std::string(key) + "=" + UrlEncode(value);
  };
  add("labelSelector", label_selector);
  add("fieldSelector", field_selector);
  if (limit > 0) add("limit", std::to_string(limit));
  add("continue", continue_token);
  add("resourceVersion", resource_version);
  add("resourceVersionMatch", resource_version_match);
  if (watch) add("watch", "true");
  if (allow_watch_bookmarks) add("allowWatchBookmarks", "true");
  if (send_initial_events) add("sendInitialEvents", "true");
  if (timeout_seconds) add("timeoutSeconds", std::to_string(*timeout_seconds));
  return query;
}

}  // namespace kube
