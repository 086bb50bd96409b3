#include "src/cache/WatchDecoder.h"

#include "src/cache/JsonFields.h"

namespace kube {
namespace {

Result<WatchEventType> ParseType(std::string_view type) {
  if (type == "ADDED") return WatchEventType::kAdded;
  if (type == "MODIFIED") return WatchEventType::kModified;
  if (type == "DELETED") return WatchEventType::kDeleted;
  if (type == "BOOKMARK") return WatchEventType::kBookmark;
  if (type == "ERROR") return WatchEventType::kError;
  return Status(StatusCode::kParseError, "unknown watch event type \"" + std::string(type) + "\"");
}

StatusCode CodeForHttp(int64_t code, std::string_view reason) {
  if (code == 410 || reason == "Expired" || reason == "Gone") return StatusCode::kGone;
  if (code == 429) return StatusCode::kTooManyRequests;
  if (code == 403) return StatusCode::kForbidden;
  if (code == 401) return StatusCode::kUnauthorized;
  if (code == 504 || reason == "Timeout") return StatusCode::kTimeout;
  return StatusCode::kInternal;
}

}  // namespace

Result<simdjson::dom::element> WatchDecoder::ParseDocument(std::string_view body) {
  simdjson::dom::element doc;
  auto error = parser_.parse(body.data(), body.size(), /*realloc_if_needed=*/true).get(doc);
  if (error != simdjson::SUCCESS) {
    return Status(StatusCode::kParseError,
                  std::string("invalid JSON: ") + simdjson::error_message(error));
  }
  return doc;
}

Result<RawWatchEvent> WatchDecoder::Decode(std::string_view line) {
  auto doc = ParseDocument(line);
  if (!doc.ok()) return doc.status();
  std::string_view type_name;
  if (!json::IsObject(*doc) || (*doc)["type"].get(type_name) != simdjson::SUCCESS) {
    return Status(StatusCode::kParseError, "watch event has no type");
  }
  auto type = ParseType(type_name);
  if (!type.ok()) return type.status();
  RawWatchEvent event;
  event.type = *type;
  event.object = json::Field(*doc, "object");
  if (!json::IsObject(event.object))
    return Status(StatusCode::kParseError, "watch event has no object");
  simdjson::dom::element metadata = json::Field(event.object, "metadata");
  event.resource_version = json::StringOr(metadata, "resourceVersion");
  if (event.type == WatchEventType::kBookmark) {
    event.initial_events_end =
        json::StringOr(json::Field(metadata, "annotations"), "k8s.io/initial-events-end") == "true";
  }
  return event;
}

Status WatchDecoder::ErrorEventStatus(simdjson::dom::element status_object) {
  int64_t code = json::IntOr(status_object, "code");
  std::string_view reason = json::StringOr(status_object, "reason");
  std::string message(json::StringOr(status_object, "message", "watch error"));
  return Status(CodeForHttp(code, reason), message);
}

}  // namespace kube
