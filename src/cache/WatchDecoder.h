#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "src/base/Result.h"

namespace kube {

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

// One decoded watch line. `object` points into the decoder's buffer and is
// valid only until the next Decode().
struct RawWatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  simdjson::dom::element object;
  std::string_view resource_version;  // object's metadata.resourceVersion
  bool initial_events_end = false;    // bookmark closing a streaming list
};

// Decodes watch lines ({"type":..., "object":{...}}) and list bodies with
// simdjson, reusing its buffers across calls.
class WatchDecoder {
 public:
  Result<RawWatchEvent> Decode(std::string_view line);
  // Parses a whole document (a LIST page); valid until the next call.
  Result<simdjson::dom::element> ParseDocument(std::string_view body);

  // The Status carried by an ERROR event's object, e.g. 410 Expired.
  static Status ErrorEventStatus(simdjson::dom::element status_object);

 private:
  simdjson::dom::parser parser_;
};

}  // namespace kube
