#include "src/events/EventWriter.h"

#include <ctime>

namespace kube {
namespace {

const ResourceType kEvents{"", "v1", "events", true, "Event"};

// metav1.Time: RFC 3339 in UTC with whole seconds.
std::string Rfc3339(std::chrono::system_clock::time_point t) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

void SetIfNotEmpty(nlohmann::json& object, const char* field, const std::string& value) {
  if (!value.empty()) object[field] = value;
}

nlohmann::json InvolvedObject(const ObjectReference& o) {
  nlohmann::json ref = nlohmann::json::object();
  SetIfNotEmpty(ref, "apiVersion", o.api_version);
  SetIfNotEmpty(ref, "kind", o.kind);
  SetIfNotEmpty(ref, "namespace", o.namespace_name);
  SetIfNotEmpty(ref, "name", o.name);
  SetIfNotEmpty(ref, "uid", o.uid);
  SetIfNotEmpty(ref, "resourceVersion", o.resource_version);
  return ref;
}

// Messages come from anywhere; invalid UTF-8 would make serialization throw.
nlohmann::json WithValidUtf8(const nlohmann::json& document) {
  std::string text = document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace

EventWriter::EventWriter(std::shared_ptr<RestClient> client, EventSource source)
    : client_(std::move(client)), source_(std::move(source)) {}

Result<EventWriter::Outcome> EventWriter::Write(const CorrelatedEvent& event) {
  if (event.is_new) {
    auto created = Create(event);
    if (created.ok() || created.status().code() != StatusCode::kAlreadyExists) return created;
    return Patch(event);
  }
  auto patched = Patch(event);
  if (patched.ok() || patched.status().code() != StatusCode::kNotFound) return patched;
  return Create(event);
}

Result<EventWriter::Outcome> EventWriter::Create(const CorrelatedEvent& event) {
  auto created = client_->Create(kEvents, event.namespace_name, WithValidUtf8(EventObject(event)));
  if (!created.ok()) return created.status();
  return Outcome::kCreated;
}

Result<EventWriter::Outcome> EventWriter::Patch(const CorrelatedEvent& event) {
  std::string body =
      OccurrencePatch(event).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  auto patched = client_->Patch(kEvents.ItemPath(event.namespace_name, event.name),
                                PatchType::kStrategicMerge, body);
  if (!patched.ok()) return patched.status();
  return Outcome::kPatched;
}

nlohmann::json EventWriter::EventObject(const CorrelatedEvent& event) const {
  return {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", event.name}, {"namespace", event.namespace_name}}},
      {"involvedObject", InvolvedObject(event.object)},
      {"type", event.type},
      {"reason", event.reason},
      {"message", event.message},
      {"source", {{"component", source_.component}, {"host", source_.host}}},
      {"firstTimestamp", Rfc3339(event.first_timestamp)},
      {"lastTimestamp", Rfc3339(event.last_timestamp)},
      {"count", event.count},
      // The JSON name of Event.ReportingController in core/v1.
      {"reportingComponent", source_.component},
      {"reportingInstance", source_.host},
  };
}

nlohmann::json EventWriter::OccurrencePatch(const CorrelatedEvent& event) {
  return {{"count", event.count},
          {"lastTimestamp", Rfc3339(event.last_timestamp)},
          {"message", event.message}};
}

}  // namespace kube
