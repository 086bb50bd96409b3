#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "controller/alerts/AlertHealthStore.h"
#include "controller/alerts/AlertLabelFilter.h"
#include "controller/alerts/AlertLedger.h"
#include "controller/alerts/AlertMapper.h"
#include "controller/alerts/AlertMetrics.h"
#include "controller/alerts/AlertmanagerPayload.h"
#include "controller/alerts/ResolutionStore.h"
#include "src/base/Clock.h"
#include "src/base/LogThrottle.h"

namespace dra::alerts {

// What became of one alert of a notification.
struct AlertOutcome {
  std::string outcome;  // an AlertMetrics outcome
  std::string health;   // the DeviceHealth it concerns, "" when none
  std::string detail;   // why, for the reply and the log
};

// Turns Alertmanager notifications into DeviceHealths labelled
// dra-controller.dev/source=alertmanager, one per GPU the alerts name (by
// UUID, or by node and index): the firing alerts of a GPU set its state
// (AlertLedger::Current), every alert resolved sets it back to Healthy, and
// the health reconciler does the rest (preview, hold-off, storm guard).
// Repeated and out-of-order notifications change nothing (AlertLedger), also
// for a GPU without a DeviceHealth (ResolutionMemory). A
// firing alert for a GPU the inventory does not hold (or holds more than
// once) is written nowhere: it gets a Warning Event and a counter. A
// DeviceHealth of that name without the label (a person's) is left alone.
// Notifications are handled one at a time. Thread-safe.
class AlertReceiver {
 public:
  struct Inputs {
    AlertMapper mapper;
    // How many published devices the alert's target matches.
    std::function<size_t(const GpuAlert&)> count_devices;
    std::shared_ptr<AlertHealthStore> store;
    // A Warning Event (reason, message) about an alert that was not applied.
    std::function<void(const std::string&, const std::string&)> warn;
    std::shared_ptr<AlertMetrics> metrics;
    // Wall time, to refuse news from the future; null: the real clock.
    std::shared_ptr<kube::Clock> clock;
    // Alerts without these label values are refused ("untrusted"), logged
    // at most every few seconds, and never acted on.
    AlertLabelFilter required_labels;
    // The alerts seen resolving, kept apart from the DeviceHealths; null: none.
    std::shared_ptr<ResolutionStore> resolutions;
  };

  // How far ahead of this process's clock an alert's startsAt (endsAt once
  // resolved) may be: Prometheus and Alertmanager stamp alerts with their
  // own clocks. News from further ahead is refused ("invalid"): recorded, it
  // would make every later real notification of its alert look stale.
  static constexpr int64_t kMaxClockSkewMs = int64_t{5} * 60 * 1000;

  explicit AlertReceiver(Inputs inputs);

  // One outcome per alert, in order; an error when the API server did not
  // take a write (Alertmanager then retries the whole notification, which
  // is harmless), or when handling it failed unexpectedly (logged, and
  // counted as outcome "error" for each of its alerts).
  kube::Result<std::vector<AlertOutcome>> Receive(const AlertmanagerPayload& payload);

 private:
  struct Group {
    std::vector<size_t> positions;  // of the alerts in the notification
    std::vector<GpuAlert> alerts;
  };

  kube::Result<std::vector<AlertOutcome>> ReceiveLocked(const AlertmanagerPayload& payload);
  // The alert's news, or why it is refused (its time too far ahead).
  kube::Result<GpuAlert> Read(const Alert& alert, int64_t now_ms) const;
  kube::Status ApplyGroup(const Group& group, int64_t now_ms, std::vector<AlertOutcome>& outcomes);
  // What one notification reads of the resolution memory and adds to it.
  struct Resolutions {
    std::optional<ResolutionMemory> loaded;  // read at most once per notification
    std::vector<ResolutionMemory::Entry> seen;
  };
  // Gives a GPU without a DeviceHealth the resolutions remembered for it.
  void Recall(const std::string& name, AlertLedger& ledger);
  void SaveResolutions();
  // Whether the firing alert names exactly one published device; when not,
  // records the outcome, the Warning Event and the counter.
  bool Locate(const GpuAlert& alert, AlertOutcome& outcome);
  kube::Result<health::SourcedWrite> Write(const GpuAlert& target, const AlertLedger& ledger);
  void Count(const AlertOutcome& outcome);

  Inputs inputs_;
  Resolutions resolutions_;  // of the notification being handled, under mu_
  kube::LogThrottle untrusted_log_;
  std::mutex mu_;
};

}  // namespace dra::alerts
