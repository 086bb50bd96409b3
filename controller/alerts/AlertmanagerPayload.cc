#include "controller/alerts/AlertmanagerPayload.h"

#include <nlohmann/json.hpp>

#include "src/base/JsonShape.h"
#include "src/base/QuoteForMessage.h"
#include "src/base/Rfc3339.h"

namespace dra::alerts {
namespace {

using nlohmann::json;

kube::Status Invalid(const std::string& what) {
  return kube::Status(kube::StatusCode::kInvalidArgument, "Alertmanager payload: " + what);
}

kube::Result<std::map<std::string, std::string>> StringMap(const json& alert, const char* field,
                                                           bool required) {
  std::map<std::string, std::string> out;
  auto it = alert.find(field);
  if (it == alert.end() || it->is_null()) {
    if (required) return Invalid(std::string("an alert has no ") + field);
    return out;
  }
  if (!it->is_object()) return Invalid(std::string(field) + " is not an object");
  for (const auto& [key, value] : it->items()) {
    if (!value.is_string()) {
      return Invalid(std::string(field) + " " + kube::QuoteForMessage(key) + " is not a string");
    }
    out.emplace(key, value.get<std::string>());
  }
  return out;
}

kube::Result<int64_t> Timestamp(const json& alert, const char* field) {
  auto it = alert.find(field);
  if (it == alert.end() || it->is_null()) return int64_t{0};
  if (!it->is_string()) return Invalid(std::string(field) + " is not a string");
  auto millis = kube::Rfc3339::ToMillis(it->get_ref<const std::string&>());
  if (!millis) return Invalid(std::string(field) + " is not an RFC 3339 time");
  return *millis;
}

kube::Result<Alert> ParseAlert(const json& object) {
  if (!object.is_object()) return Invalid("an alert is not an object");
  Alert alert;
  auto status = object.find("status");
  if (status == object.end() || !status->is_string() ||
      (*status != "firing" && *status != "resolved")) {
    return Invalid("an alert's status is not \"firing\" or \"resolved\"");
  }
  alert.firing = *status == "firing";
  auto labels = StringMap(object, "labels", true);
  if (!labels.ok()) return labels.status();
  alert.labels = std::move(*labels);
  auto annotations = StringMap(object, "annotations", false);
  if (!annotations.ok()) return annotations.status();
  alert.annotations = std::move(*annotations);
  auto starts = Timestamp(object, "startsAt");
  if (!starts.ok()) return starts.status();
  auto ends = Timestamp(object, "endsAt");
  if (!ends.ok()) return ends.status();
  alert.starts_at_ms = *starts;
  alert.ends_at_ms = *ends;
  auto fingerprint = object.find("fingerprint");
  if (fingerprint != object.end() && fingerprint->is_string()) {
    alert.fingerprint = fingerprint->get<std::string>();
  }
  return alert;
}

kube::Result<AlertmanagerPayload> FromJson(const json& document) {
  if (!document.is_object()) return Invalid("not a JSON object");
  auto version = document.find("version");
  if (version == document.end() || !version->is_string() || *version != "4") {
    return Invalid("version is not \"4\"");
  }
  auto alerts = document.find("alerts");
  if (alerts == document.end() || !alerts->is_array()) return Invalid("no alerts array");
  if (alerts->size() > AlertmanagerPayload::kMaxAlerts) {
    return Invalid("more than " + std::to_string(AlertmanagerPayload::kMaxAlerts) + " alerts");
  }
  AlertmanagerPayload payload;
  if (auto it = document.find("receiver"); it != document.end() && it->is_string()) {
    payload.receiver = it->get<std::string>();
  }
  if (auto it = document.find("groupKey"); it != document.end() && it->is_string()) {
    payload.group_key = it->get<std::string>();
  }
  for (const auto& object : *alerts) {
    auto alert = ParseAlert(object);
    if (!alert.ok()) return alert.status();
    payload.alerts.push_back(std::move(*alert));
  }
  return payload;
}

}  // namespace

std::string Alert::Label(const std::string& name) const {
  auto it = labels.find(name);
  return it == labels.end() ? "" : it->second;
}

kube::Result<AlertmanagerPayload> AlertmanagerPayload::Parse(std::string_view body) {
  kube::Status shape = kube::JsonShape::Check(body, kMaxDepth, kMaxValues);
  if (!shape.ok()) return Invalid(shape.message());
  json document = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return Invalid("not JSON");
  return FromJson(document);
}

}  // namespace dra::alerts
