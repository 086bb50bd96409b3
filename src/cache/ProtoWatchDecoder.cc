#include "src/cache/ProtoWatchDecoder.h"

#include "src/cache/ObjectMeta.h"
#include "src/proto/ProtoEnvelope.h"
#include "src/proto/ProtoFields.h"
#include "src/proto/ProtoReader.h"
#include "src/proto/ProtoStatus.h"

namespace kube {
namespace {

// metav1.WatchEvent, runtime.RawExtension and metav1.ObjectMeta fields.
constexpr uint32_t kEventType = 1;
constexpr uint32_t kEventObject = 2;
constexpr uint32_t kRawExtensionRaw = 1;
constexpr uint32_t kName = 1;
constexpr uint32_t kNamespace = 3;
constexpr uint32_t kResourceVersion = 6;
constexpr std::string_view kInitialEventsEnd = "k8s.io/initial-events-end";

struct EventParts {
  std::string_view type;
  std::string_view object;  // the enveloped object
};

Result<EventParts> SplitEvent(std::string_view frame) {
  EventParts parts;
  bool has_type = false;
  std::string_view raw_extension;
  ProtoReader reader(frame);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kEventType) {
      parts.type = reader.bytes();
      has_type = true;
    }
    if (reader.field() == kEventObject) raw_extension = reader.bytes();
  }
  if (!reader.ok()) return reader.status().WithContext("watch event");
  if (!has_type) return Status(StatusCode::kParseError, "watch event has no type");
  auto raw_or = ProtoFields::Find(raw_extension, kRawExtensionRaw);
  if (!raw_or.ok()) return raw_or.status();
  auto raw = std::move(*raw_or);
  if (!raw.has_value()) return Status(StatusCode::kParseError, "watch event has no object");
  parts.object = *raw;
  return parts;
}

// metadata.resourceVersion, and whether the initial-events-end annotation
// is "true" (a watch-list's closing bookmark).
Status ReadEventMetadata(std::string_view object, RawWatchEvent& event) {
  auto metadata_or = ProtoFields::FindFirst(object, ObjectMeta::kProtoField);
  if (!metadata_or.ok()) return metadata_or.status();
  auto metadata = std::move(*metadata_or);
  if (!metadata.has_value()) return Status::Ok();
  ProtoReader reader(*metadata);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kResourceVersion) event.resource_version = reader.bytes();
    if (reader.field() == ObjectMeta::kProtoAnnotations &&
        event.type == WatchEventType::kBookmark) {
      auto entry_or = ProtoFields::Entry(reader.bytes());
      if (!entry_or.ok()) return entry_or.status();
      auto entry = std::move(*entry_or);
      if (entry.first == kInitialEventsEnd) event.initial_events_end = entry.second == "true";
    }
  }
  return reader.status();
}

}  // namespace

Result<RawWatchEvent> ProtoWatchDecoder::Decode(std::string_view frame) {
  auto parts_or = SplitEvent(frame);
  if (!parts_or.ok()) return parts_or.status();
  auto parts = std::move(*parts_or);
  RawWatchEvent event;
  KUBE_ASSIGN_OR_RETURN(event.type, WatchDecoder::ParseEventType(parts.type));
  auto object_or = ProtoEnvelope::Unwrap(parts.object);
  if (!object_or.ok()) return object_or.status();
  auto object = std::move(*object_or);
  event.object = RawObject::Protobuf(object);
  if (event.type != WatchEventType::kError) {
    KUBE_RETURN_IF_ERROR(ReadEventMetadata(object, event).WithContext("metadata"));
  }
  return event;
}

Result<SalvagedObject> ProtoWatchDecoder::Salvage(std::string_view frame) {
  auto parts_or = SplitEvent(frame);
  if (!parts_or.ok()) return parts_or.status();
  auto parts = std::move(*parts_or);
  auto type_or = WatchDecoder::ParseEventType(parts.type);
  if (!type_or.ok()) return type_or.status();
  auto type = std::move(*type_or);
  auto object_or = ProtoEnvelope::Unwrap(parts.object);
  if (!object_or.ok()) return object_or.status();
  auto object = std::move(*object_or);
  SalvagedObject salvaged;
  salvaged.type = type;
  auto metadata_or = ProtoFields::FindFirst(object, ObjectMeta::kProtoField);
  if (!metadata_or.ok()) return metadata_or.status();
  auto metadata = std::move(*metadata_or);
  if (!metadata.has_value()) return Status(StatusCode::kParseError, "object has no metadata");
  // Field by field, so that a bad field after the name leaves what came first.
  ProtoReader reader(*metadata);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kName) salvaged.name = reader.AsString();
    if (reader.field() == kNamespace) salvaged.namespace_name = reader.AsString();
    if (reader.field() == kResourceVersion) salvaged.resource_version = reader.AsString();
  }
  return salvaged;
}

Status ProtoWatchDecoder::ErrorEventStatus(std::string_view status_message) {
  auto status = ProtoStatus::Decode(status_message);
  if (!status.ok()) return status.status().WithContext("watch ERROR event");
  return WatchDecoder::ErrorStatus(status->code, status->reason, std::move(status->message));
}

}  // namespace kube
