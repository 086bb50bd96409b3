#include "controller/alerts/AlertLedger.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "src/base/JsonShape.h"
#include "src/base/NlohmannFields.h"
#include "src/base/Utf8Text.h"

namespace dra::alerts {
namespace {

using nlohmann::json;

int Severity(api::HealthState state) {
  switch (state) {
    case api::HealthState::kUnhealthy:
      return 3;
    case api::HealthState::kUnknown:
      return 2;
    case api::HealthState::kDegraded:
      return 1;
    case api::HealthState::kHealthy:
      return 0;
  }
  return 0;
}

kube::Status NotALedger(const std::string& why) {
  return kube::Status(kube::StatusCode::kParseError,
                      std::string(AlertLedger::kAnnotation) + " is not an alert ledger: " + why);
}

kube::Result<AlertLedger::Entry> EntryFrom(const json& object) {
  if (!object.is_object()) return NotALedger("an entry is not an object");
  AlertLedger::Entry entry;
  auto firing = object.find("firing");
  auto at = object.find("at");
  auto state = object.find("state");
  if (firing == object.end() || !firing->is_boolean() || at == object.end() ||
      !at->is_number_integer() || state == object.end() || !state->is_string()) {
    return NotALedger("an entry lacks firing, at or state");
  }
  auto parsed = api::ParseHealthState(state->get<std::string>());
  if (!parsed) return NotALedger("unknown state");
  entry.firing = firing->get<bool>();
  entry.at_ms = at->get<int64_t>();
  entry.state = *parsed;
  // An annotation anyone could have edited: what it says must still fit the
  // DeviceHealth schema when it is written back.
  entry.reason = AlertMapper::ReasonFrom(
      kube::NlohmannFields::Text(kube::NlohmannFields::At(object, "reason")));
  entry.message = kube::Utf8Text::Truncate(
      kube::NlohmannFields::Text(kube::NlohmannFields::At(object, "message")),
      AlertMapper::kMaxMessage);
  return entry;
}

}  // namespace

kube::Result<AlertLedger> AlertLedger::FromAnnotation(const std::string& text) {
  AlertLedger ledger;
  if (text.empty()) return ledger;
  // Anyone who may edit the DeviceHealth writes this text: its shape is
  // checked before a document is built (a ledger is two levels deep).
  kube::Status shape = kube::JsonShape::Check(text, kMaxDepth, kMaxValues);
  if (!shape.ok()) return NotALedger(shape.message());
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object()) return NotALedger("not a JSON object");
  for (const auto& [fingerprint, object] : document.items()) {
    auto entry = EntryFrom(object);
    if (!entry.ok()) return entry.status();
    ledger.entries_.emplace(fingerprint, std::move(*entry));
  }
  return ledger;
}

std::string AlertLedger::ToAnnotation() const {
  json document = json::object();
  for (const auto& [fingerprint, entry] : entries_) {
    document[fingerprint] = {{"firing", entry.firing},
                             {"at", entry.at_ms},
                             {"state", std::string(api::HealthStateName(entry.state))},
                             {"reason", entry.reason},
                             {"message", entry.message}};
  }
  return document.dump();
}

std::string AlertLedger::KeyOf(const GpuAlert& alert) {
  return alert.fingerprint.empty() ? "alertname:" + alert.reason : alert.fingerprint;
}

void AlertLedger::RecallResolved(const std::string& key, int64_t at_ms) {
  auto [it, added] = entries_.try_emplace(key);
  if (!added && it->second.at_ms >= at_ms) return;
  it->second = Entry{false, at_ms, api::HealthState::kHealthy, "AlertsResolved", ""};
  Prune();
}

AlertLedger::News AlertLedger::Record(const GpuAlert& alert) {
  std::string key = KeyOf(alert);
  auto [it, added] = entries_.try_emplace(key);
  Entry& entry = it->second;
  if (!added) {
    if (alert.at_ms < entry.at_ms) return News::kStale;
    // The same news again: Alertmanager repeats a firing alert's notification
    // (startsAt unchanged) every repeat_interval; its first text stands.
    if (alert.at_ms == entry.at_ms && alert.firing == entry.firing) return News::kRepeat;
    // Resolved and fired again at the same instant: resolved wins.
    if (alert.at_ms == entry.at_ms && alert.firing) return News::kStale;
  }
  entry = Entry{alert.firing, alert.at_ms, alert.state, alert.reason, alert.message};
  Prune();
  // Too old to keep among the others: as if it never came.
  return entries_.contains(key) ? News::kRecorded : News::kStale;
}

size_t AlertLedger::DistrustFuture(int64_t latest_ms, int64_t now_ms) {
  size_t redated = 0;
  for (auto& [fingerprint, entry] : entries_) {
    if (entry.at_ms <= latest_ms) continue;
    entry.at_ms = now_ms;
    ++redated;
  }
  return redated;
}

AlertLedger::Verdict AlertLedger::Current() const {
  const Entry* worst = nullptr;
  for (const auto& [fingerprint, entry] : entries_) {
    if (!entry.firing) continue;
    if (worst == nullptr || Severity(entry.state) > Severity(worst->state) ||
        (Severity(entry.state) == Severity(worst->state) && entry.at_ms > worst->at_ms)) {
      worst = &entry;
    }
  }
  if (worst == nullptr)
    return {api::HealthState::kHealthy, "AlertsResolved", "every alert resolved"};
  return {worst->state, worst->reason, worst->message};
}

void AlertLedger::Prune() {
  int64_t newest = 0;
  for (const auto& [fingerprint, entry] : entries_) newest = std::max(newest, entry.at_ms);
  std::erase_if(entries_, [&](const auto& item) {
    return !item.second.firing && newest - item.second.at_ms > kKeepResolvedMs;
  });
  while (entries_.size() > kMaxEntries) {
    // Oldest resolved first, then oldest firing.
    auto victim =
        std::min_element(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
          if (a.second.firing != b.second.firing) return !a.second.firing;
          return a.second.at_ms < b.second.at_ms;
        });
    entries_.erase(victim);
  }
}

}  // namespace dra::alerts
