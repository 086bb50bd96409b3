#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "controller/alerts/AlertMapper.h"
#include "src/base/Result.h"

namespace dra::alerts {

// What the webhook last heard of each alert about one GPU, kept as a JSON
// annotation on that GPU's DeviceHealth so every replica, and a restarted
// one, orders notifications the same way. Alertmanager repeats
// notifications and, across retries and HA peers, may deliver them out of
// order: a notification older than the one recorded for the same alert
// (fingerprint) changes nothing, and so does a repeat.
class AlertLedger {
 public:
  static constexpr const char* kAnnotation = "dra-controller.dev/alerts";
  // Resolved alerts are kept this long after the newest news (so a late
  // copy of their firing notification is recognised), and at most
  // kMaxEntries alerts in all (resolved ones go first).
  static constexpr int64_t kKeepResolvedMs = int64_t{24} * 3600 * 1000;
  static constexpr size_t kMaxEntries = 32;
  // Annotation text nested deeper, or holding more values, is not a ledger.
  static constexpr size_t kMaxDepth = 4;
  static constexpr size_t kMaxValues = 10000;

  struct Entry {
    bool firing = false;
    int64_t at_ms = 0;
    api::HealthState state = api::HealthState::kUnhealthy;
    std::string reason;
    std::string message;
  };

  // An empty ledger for empty text; an error for text that is not a ledger
  // (the caller starts afresh and says so).
  static kube::Result<AlertLedger> FromAnnotation(const std::string& text);
  std::string ToAnnotation() const;

  // The alert's key: its fingerprint, or its alertname when it has none.
  static std::string KeyOf(const GpuAlert& alert);

  enum class News { kRecorded, kRepeat, kStale };
  // Records the news unless it repeats or is older than what is known.
  News Record(const GpuAlert& alert);

  // An alert known to have resolved at `at_ms` (ResolutionMemory), unless
  // the ledger knows newer news of it.
  void RecallResolved(const std::string& key, int64_t at_ms);

  // The state the firing alerts add up to (the worst: Unhealthy, Unknown,
  // Degraded), with the reason and message of the newest alert in that
  // state; Healthy with reason AlertsResolved when none fires.
  struct Verdict {
    api::HealthState state = api::HealthState::kHealthy;
    std::string reason;
    std::string message;
  };
  Verdict Current() const;

  // Entries dated after `latest_ms` (a clock far ahead once wrote them, or
  // a person) are dated `now_ms` instead, so that later real news is not
  // taken for stale. Returns how many were.
  size_t DistrustFuture(int64_t latest_ms, int64_t now_ms);

  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  void Prune();

  std::map<std::string, Entry> entries_;  // by fingerprint
};

}  // namespace dra::alerts
