#include "controller/alerts/AlertReceiver.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <map>

#include "src/base/QuoteForMessage.h"
#include "src/base/RealClock.h"

namespace dra::alerts {
namespace {

constexpr const char* kSource = "alertmanager";
// How often untrusted alerts are logged at most.
constexpr std::chrono::seconds kUntrustedLogInterval{10};

// Label values are outside input: quoted (escaped, bounded) wherever they
// reach a log line, an Event or a reply.
std::string TargetText(const GpuAlert& alert) {
  if (!alert.uuid.empty()) return "UUID " + kube::QuoteForMessage(alert.uuid);
  return "node " + kube::QuoteForMessage(alert.node) + " index " +
         std::to_string(alert.index.value_or(-1));
}

int64_t WallMillis(const kube::Clock& clock) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(clock.WallNow().time_since_epoch())
      .count();
}

const char* NewsOutcome(AlertLedger::News news) {
  switch (news) {
    case AlertLedger::News::kRecorded:
      return "applied";
    case AlertLedger::News::kRepeat:
      return "unchanged";
    case AlertLedger::News::kStale:
      return "stale";
  }
  return "error";
}

}  // namespace

AlertReceiver::AlertReceiver(Inputs inputs)
    : inputs_(std::move(inputs)), untrusted_log_(kUntrustedLogInterval) {
  if (!inputs_.clock) inputs_.clock = kube::RealClock::Shared();
}

kube::Result<std::vector<AlertOutcome>> AlertReceiver::Receive(const AlertmanagerPayload& payload) {
  std::lock_guard lock(mu_);
  // Library exceptions stop here: a notification that cannot be handled is
  // an error the webhook answers (and Alertmanager retries), never a crash.
  try {
    return ReceiveLocked(payload);
  } catch (const std::exception& e) {
    spdlog::error("Alertmanager notification of {} alerts not handled: {}", payload.alerts.size(),
                  kube::QuoteForMessage(e.what(), 256));
    for (size_t i = 0; i < payload.alerts.size(); ++i) Count({"error", "", ""});
    return kube::Status(kube::StatusCode::kInternal,
                        "notification not handled: " + kube::QuoteForMessage(e.what(), 256));
  }
}

kube::Result<GpuAlert> AlertReceiver::Read(const Alert& alert, int64_t now_ms) const {
  auto mapped = inputs_.mapper.Map(alert);
  if (!mapped.ok()) return mapped.status();
  if (mapped->at_ms > now_ms + kMaxClockSkewMs) {
    return kube::Status(kube::StatusCode::kInvalidArgument,
                        std::string("alert ") + mapped->reason + ": " +
                            (alert.firing ? "startsAt" : "endsAt") + " is " +
                            std::to_string((mapped->at_ms - now_ms) / 1000) +
                            " s in the future (at most " + std::to_string(kMaxClockSkewMs / 1000) +
                            " s of clock skew allowed)");
  }
  return mapped;
}

kube::Result<std::vector<AlertOutcome>> AlertReceiver::ReceiveLocked(
    const AlertmanagerPayload& payload) {
  int64_t now_ms = WallMillis(*inputs_.clock);
  std::vector<AlertOutcome> outcomes(payload.alerts.size());
  std::map<std::string, Group> groups;
  std::vector<std::string> order;
  for (size_t i = 0; i < payload.alerts.size(); ++i) {
    kube::Status trusted = inputs_.required_labels.Check(payload.alerts[i]);
    if (!trusted.ok()) {
      outcomes[i] = {"untrusted", "", trusted.message()};
      Count(outcomes[i]);
      if (auto suppressed = untrusted_log_.Admit()) {
        spdlog::warn("Alertmanager webhook: refused {} ({} more not logged)", trusted.message(),
                     *suppressed);
      }
      continue;
    }
    auto mapped = Read(payload.alerts[i], now_ms);
    if (!mapped.ok()) {
      outcomes[i] = {"invalid", "", mapped.status().message()};
      Count(outcomes[i]);
      continue;
    }
    auto [it, added] = groups.try_emplace(mapped->health_name);
    if (added) order.push_back(mapped->health_name);
    it->second.positions.push_back(i);
    it->second.alerts.push_back(std::move(*mapped));
  }
  resolutions_ = {};
  for (const auto& name : order) {
    kube::Status applied = ApplyGroup(groups[name], now_ms, outcomes);
    if (!applied.ok()) return applied;
  }
  SaveResolutions();
  return outcomes;
}

void AlertReceiver::Recall(const std::string& name, AlertLedger& ledger) {
  if (!inputs_.resolutions) return;
  if (!resolutions_.loaded) {
    // No Result is assigned over: GCC 12 at -O1 (the ASan build) warns that
    // its Status may be used uninitialized.
    auto loaded = inputs_.resolutions->Load();
    resolutions_.loaded.emplace();
    if (loaded.ok()) {
      *resolutions_.loaded = std::move(*loaded);
    } else {
      // The safe side: without the memory a late firing notification taints.
      spdlog::warn(
          "Alertmanager webhook: alert resolutions not read ({}); a late firing "
          "notification of an alert that already resolved is applied",
          loaded.status().message());
    }
  }
  for (const auto& [key, at_ms] : resolutions_.loaded->For(name)) {
    ledger.RecallResolved(key, at_ms);
  }
}

// A memory that cannot be written never fails the notification: what it
// would have kept matters only if a late copy of a firing one comes.
void AlertReceiver::SaveResolutions() {
  if (!inputs_.resolutions || resolutions_.seen.empty()) return;
  kube::Status saved = inputs_.resolutions->Add(resolutions_.seen);
  if (!saved.ok()) {
    spdlog::warn("Alertmanager webhook: {} alert resolutions not remembered: {}",
                 resolutions_.seen.size(), saved.message());
  }
}

kube::Status AlertReceiver::ApplyGroup(const Group& group, int64_t now_ms,
                                       std::vector<AlertOutcome>& outcomes) {
  const std::string& name = group.alerts.front().health_name;
  auto stored = inputs_.store->Read(name);
  if (!stored.ok()) return stored.status();
  auto outcome_of = [&](size_t k) -> AlertOutcome& { return outcomes[group.positions[k]]; };
  if (stored->exists && !stored->ours) {
    for (size_t k = 0; k < group.alerts.size(); ++k) {
      outcome_of(k) = {"not_ours", name, "DeviceHealth " + name + " is not the alertmanager's"};
      Count(outcome_of(k));
    }
    return kube::Status::Ok();
  }
  AlertLedger ledger;
  if (auto read = AlertLedger::FromAnnotation(stored->ledger); read.ok()) {
    ledger = std::move(*read);
  } else {
    spdlog::warn("DeviceHealth {}: {}; starting its alert ledger afresh", name,
                 read.status().message());
  }
  if (size_t redated = ledger.DistrustFuture(now_ms + kMaxClockSkewMs, now_ms)) {
    spdlog::warn("DeviceHealth {}: {} alert ledger entries dated in the future; dated now instead",
                 name, redated);
  }
  bool firing = std::any_of(group.alerts.begin(), group.alerts.end(),
                            [](const GpuAlert& a) { return a.firing; });
  if (!stored->exists && firing) Recall(name, ledger);
  bool changed = false;
  std::vector<size_t> recorded;
  for (size_t k = 0; k < group.alerts.size(); ++k) {
    const GpuAlert& alert = group.alerts[k];
    if (!stored->exists && alert.firing && !Locate(alert, outcome_of(k))) continue;
    auto news = ledger.Record(alert);
    outcome_of(k) = {NewsOutcome(news), name, ""};
    if (news == AlertLedger::News::kRecorded) recorded.push_back(k);
    if (news == AlertLedger::News::kRecorded && !alert.firing) {
      resolutions_.seen.push_back({name, AlertLedger::KeyOf(alert), alert.at_ms});
    }
    changed |= news == AlertLedger::News::kRecorded;
  }
  // Nothing fires for a GPU without a DeviceHealth: nothing to write.
  bool pointless = !stored->exists && ledger.Current().state == api::HealthState::kHealthy;
  if (changed && !pointless) {
    auto written = Write(group.alerts.front(), ledger);
    if (!written.ok()) return written.status();
    if (*written == health::SourcedWrite::kNotOurs) {
      for (size_t k : recorded) outcome_of(k) = {"not_ours", name, "written meanwhile by another"};
    }
  } else if (pointless) {
    for (size_t k : recorded) outcome_of(k) = {"unchanged", "", "resolved; nothing to lift"};
  }
  for (size_t k = 0; k < group.alerts.size(); ++k) {
    if (!outcome_of(k).outcome.empty()) Count(outcome_of(k));
  }
  return kube::Status::Ok();
}

bool AlertReceiver::Locate(const GpuAlert& alert, AlertOutcome& outcome) {
  size_t devices = inputs_.count_devices(alert);
  if (devices == 1) return true;
  bool unknown = devices == 0;
  outcome.outcome = unknown ? "unknown_device" : "ambiguous_device";
  outcome.detail = unknown
                       ? "no published device has " + TargetText(alert)
                       : std::to_string(devices) + " published devices have " + TargetText(alert);
  std::string message = "alert " + alert.reason + ": " + outcome.detail + "; nothing written";
  spdlog::warn("{}", message);
  if (inputs_.warn) inputs_.warn(unknown ? "UnknownDevice" : "AmbiguousDevice", message);
  return false;
}

kube::Result<health::SourcedWrite> AlertReceiver::Write(const GpuAlert& target,
                                                        const AlertLedger& ledger) {
  AlertLedger::Verdict verdict = ledger.Current();
  health::SourcedHealth health;
  health.name = target.health_name;
  health.source = kSource;
  health.uuid = target.uuid;
  health.node = target.node;
  health.index = target.index;
  health.state = verdict.state;
  health.reason = verdict.reason;
  health.message = verdict.message;
  health.annotations[AlertLedger::kAnnotation] = ledger.ToAnnotation();
  auto written = inputs_.store->Write(health);
  if (written.ok() && *written != health::SourcedWrite::kUnchanged) {
    spdlog::info("DeviceHealth {} ({}): {} from Alertmanager ({})", health.name, TargetText(target),
                 api::HealthStateName(verdict.state), verdict.reason);
  }
  return written;
}

void AlertReceiver::Count(const AlertOutcome& outcome) {
  if (inputs_.metrics) inputs_.metrics->Alert(outcome.outcome);
}

}  // namespace dra::alerts
