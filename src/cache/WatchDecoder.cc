#include "src/cache/WatchDecoder.h"

#include <algorithm>

#include "src/cache/JsonFields.h"
#include "src/cache/JsonSpans.h"

namespace kube {
Result<WatchEventType> WatchDecoder::ParseEventType(std::string_view type) {
  if (type == "ADDED") return WatchEventType::kAdded;
  if (type == "MODIFIED") return WatchEventType::kModified;
  if (type == "DELETED") return WatchEventType::kDeleted;
  if (type == "BOOKMARK") return WatchEventType::kBookmark;
  if (type == "ERROR") return WatchEventType::kError;
  return Status(StatusCode::kParseError, "unknown watch event type \"" + std::string(type) + "\"");
}

namespace {

StatusCode CodeForHttp(int64_t code, std::string_view reason) {
  if (code == 410 || reason == "Expired" || reason == "Gone") return StatusCode::kGone;
  if (code == 429) return StatusCode::kTooManyRequests;
  if (code == 400) return StatusCode::kInvalidArgument;
  if (code == 422) return StatusCode::kInvalid;
  if (code == 403) return StatusCode::kForbidden;
  if (code == 401) return StatusCode::kUnauthorized;
  if (code == 504 || reason == "Timeout") return StatusCode::kTimeout;
  return StatusCode::kInternal;
}

}  // namespace

void WatchDecoder::ResetParser() {
  // A fresh parser is the only way to give simdjson's buffers back: neither
  // its document nor its input copy ever shrink. It allocates nothing until
  // the next document.
  parser_ = simdjson::dom::parser();
}

simdjson::error_code WatchDecoder::EnsureAllocated(size_t document_size) {
  if (parser_.capacity() > 0) return simdjson::SUCCESS;
  // Sets the depth limit for good; later growth keeps it.
  return parser_.allocate(std::max(kInitialCapacity, document_size), kMaxDepth);
}

void WatchDecoder::TrimCapacity() {
  if (parser_.capacity() > kRetainedCapacity) ResetParser();
}

Result<simdjson::dom::element> WatchDecoder::ParseDocument(std::string_view body) {
  // An empty view may have no data pointer, and simdjson memcpy()s from it
  // (undefined even for zero bytes, UBSan reports it); it is no document anyway.
  if (body.empty()) {
    return Status(StatusCode::kParseError,
                  std::string("invalid JSON: ") + simdjson::error_message(simdjson::EMPTY));
  }
  if (auto error = EnsureAllocated(body.size()); error != simdjson::SUCCESS) {
    return Status(StatusCode::kInternal,
                  std::string("JSON parser: ") + simdjson::error_message(error));
  }
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
  auto type = ParseEventType(type_name);
  if (!type.ok()) return type.status();
  RawWatchEvent event;
  event.type = *type;
  simdjson::dom::element object = json::Field(*doc, "object");
  if (!json::IsObject(object)) return Status(StatusCode::kParseError, "watch event has no object");
  event.object = object;
  simdjson::dom::element metadata = json::Field(object, "metadata");
  event.resource_version = json::StringOr(metadata, "resourceVersion");
  if (event.type == WatchEventType::kBookmark) {
    event.initial_events_end =
        json::StringOr(json::Field(metadata, "annotations"), "k8s.io/initial-events-end") == "true";
  }
  return event;
}

Result<SalvagedObject> WatchDecoder::SalvageEvent(std::string_view line) {
  auto type_doc = ParseDocument(json::MemberText(line, "type"));
  std::string_view type_name;
  if (!type_doc.ok() || type_doc->get(type_name) != simdjson::SUCCESS) {
    return Status(StatusCode::kParseError, "watch event has no type");
  }
  auto type = ParseEventType(type_name);
  if (!type.ok()) return type.status();
  auto object = SalvageObject(json::MemberText(line, "object"));
  if (!object.ok()) return object.status();
  object->type = *type;
  return object;
}

Result<SalvagedObject> WatchDecoder::SalvageObject(std::string_view object_text) {
  auto metadata = ParseDocument(json::MemberText(object_text, "metadata"));
  if (!metadata.ok()) return metadata.status().WithContext("metadata");
  if (!json::IsObject(*metadata)) return Status(StatusCode::kParseError, "object has no metadata");
  SalvagedObject object;
  object.namespace_name = json::StringOr(*metadata, "namespace");
  object.name = json::StringOr(*metadata, "name");
  object.resource_version = json::StringOr(*metadata, "resourceVersion");
  return object;
}

Status WatchDecoder::ErrorEventStatus(simdjson::dom::element status_object) {
  return ErrorStatus(json::IntOr(status_object, "code"), json::StringOr(status_object, "reason"),
                     std::string(json::StringOr(status_object, "message")));
}

Status WatchDecoder::ErrorStatus(int64_t code, std::string_view reason, std::string message) {
  if (message.empty()) message = "watch error";
  return Status(CodeForHttp(code, reason), std::move(message));
}

}  // namespace kube
