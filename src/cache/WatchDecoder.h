#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/cache/RawObject.h"

namespace kube {

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

// One decoded watch event (a JSON line or a protobuf frame). `object` points
// into the decoder's buffer or the frame and is valid only until the next
// Decode().
struct RawWatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  RawObject object;
  std::string_view resource_version;  // object's metadata.resourceVersion
  bool initial_events_end = false;    // bookmark closing a streaming list
};

// What can still be read of an object (or a watch event) that does not decode
// as a whole: enough to name it in a log line and to move past it.
struct SalvagedObject {
  WatchEventType type = WatchEventType::kAdded;  // for watch events
  std::string namespace_name;
  std::string name;
  std::string resource_version;

  std::string Key() const { return namespace_name.empty() ? name : namespace_name + "/" + name; }
};

// Decodes watch lines ({"type":..., "object":{...}}) and list bodies with
// simdjson, reusing one parser across calls.
class WatchDecoder {
 public:
  // kube-apiserver accepts objects nested up to 10,000 levels; a watch event
  // or a list page wraps them in a few more. Deeper documents are refused.
  static constexpr size_t kMaxDepth = 10'000 + 64;
  // The parser keeps its buffers between documents up to this size; after a
  // larger document TrimCapacity() gives the memory back. simdjson holds
  // about 15 bytes per byte of capacity (tape, structural indexes, strings,
  // the padded input copy), so a parser left at the size of a 1 MiB LIST
  // page holds 15 MiB: the limit sits above most watch events, below a page.
  static constexpr size_t kRetainedCapacity = size_t{64} * 1024;
  // What the first document allocates (at least): the parser holds nothing
  // before it, so an informer served protobuf never pays for it. A
  // ResourceSlice of 8 GPUs is about 2 KiB of JSON; 16 KiB of capacity is
  // about 240 KiB of parser, where 64 KiB held 0.96 MiB for every JSON
  // informer in the 40,000-device comparison.
  static constexpr size_t kInitialCapacity = size_t{16} * 1024;

  Result<RawWatchEvent> Decode(std::string_view line);
  // Parses a whole document (a LIST page); valid until the next call.
  Result<simdjson::dom::element> ParseDocument(std::string_view body);

  // Reads type and metadata of an event that Decode() refused (e.g. too deep),
  // parsing only those parts.
  Result<SalvagedObject> SalvageEvent(std::string_view line);
  // Reads the metadata of an object that ParseDocument() refused.
  Result<SalvagedObject> SalvageObject(std::string_view object_text);

  // Releases the parser's buffers when a large document grew them beyond
  // kRetainedCapacity. Invalidates elements returned earlier.
  void TrimCapacity();
  // Bytes of document the parser can currently take without growing; 0
  // before the first document and after a trim.
  size_t capacity() const { return parser_.capacity(); }

  // The Status carried by an ERROR event's object, e.g. 410 Expired.
  static Status ErrorEventStatus(simdjson::dom::element status_object);

  // Shared with the protobuf decoder: "ADDED" etc.; the Status for an ERROR
  // event's code, reason and message.
  static Result<WatchEventType> ParseEventType(std::string_view type);
  static Status ErrorStatus(int64_t code, std::string_view reason, std::string message);

 private:
  void ResetParser();
  // Allocates the parser's buffers (with the depth limit) on first use.
  simdjson::error_code EnsureAllocated(size_t document_size);

  simdjson::dom::parser parser_;
};

}  // namespace kube
