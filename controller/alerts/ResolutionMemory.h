#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "src/base/Result.h"

namespace dra::alerts {

// The alerts the webhook saw resolve, by GPU (DeviceHealth name) and alert
// (the ledger's key), kept apart from the DeviceHealths: a GPU whose object
// does not exist (never created, or deleted by a person) still remembers
// that an alert resolved, so a late copy of its older firing notification is
// recognised as stale instead of tainting the GPU for good. Bounded: entries
// go after kKeepMs, and the oldest first past kMaxEntries.
class ResolutionMemory {
 public:
  static constexpr size_t kMaxEntries = 4096;
  // As long as AlertLedger keeps a resolved alert.
  static constexpr int64_t kKeepMs = int64_t{24} * 3600 * 1000;
  // Stored text nested deeper, or holding more values, is not a memory.
  static constexpr size_t kMaxDepth = 3;
  static constexpr size_t kMaxValues = 3 * kMaxEntries;

  struct Entry {
    std::string health;  // the GPU's DeviceHealth name
    std::string key;     // AlertLedger::KeyOf the alert
    int64_t at_ms = 0;   // when it resolved (its endsAt)
  };

  // Empty for empty text; an error for text that is not a memory.
  static kube::Result<ResolutionMemory> FromText(const std::string& text);
  std::string ToText() const;

  // Keeps the newest resolution of each alert.
  void Add(const Entry& entry);
  // Drops what resolved more than kKeepMs before the newest resolution (not
  // the clock: a clock far off changes nothing), then the oldest past kMaxEntries.
  void Prune();
  // The resolutions remembered for one GPU: (key, at_ms).
  std::vector<std::pair<std::string, int64_t>> For(const std::string& health) const;
  size_t size() const;

 private:
  std::map<std::string, std::map<std::string, int64_t>> by_health_;
};

}  // namespace dra::alerts
