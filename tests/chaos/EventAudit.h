#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/chaos/LeaderTerm.h"

namespace dra::testing {

// The controller's Events (source.component "dra-controller") grouped as its
// EventRecorder deduplicates them: one key per involved object (uid), type,
// reason and message. Within one process an occurrence of a key only raises
// the count of that key's one Event object; a new process (a new leader)
// starts with an empty cache, so a key may have one Event object per leader
// term and no more.
class EventAudit {
 public:
  explicit EventAudit(const nlohmann::json& events);  // the LIST's items

  // Occurrences (sum of count) per reason.
  const std::map<std::string, int>& occurrences_by_reason() const { return by_reason_; }
  // Event objects per dedup key.
  const std::map<std::string, int>& objects_by_key() const { return objects_by_key_; }
  int MaxObjectsPerKey() const;
  int KeysWithSeveralObjects() const;
  // Keys with more than one Event object first seen strictly inside one
  // leader term (LeaderTerm::StrictlyInside): duplicates the recorder should
  // have merged. One line each.
  std::vector<std::string> DuplicatesWithinOneTerm(const std::vector<LeaderTerm>& terms) const;
  // The key with the most Event objects, and how many.
  std::pair<std::string, int> MostObjects() const;
  // Event name -> count, for Events about `kind` objects.
  std::map<std::string, int> Counts(const std::string& kind) const;

 private:
  std::map<std::string, int> by_reason_;
  std::map<std::string, int> objects_by_key_;
  std::map<std::string, std::vector<std::string>> first_seen_by_key_;  // seconds
  // "<name> first..last count=N apiVersion=V" per object, in the order of first_seen_by_key_.
  std::map<std::string, std::vector<std::string>> described_by_key_;
  std::map<std::string, std::pair<std::string, int>> by_name_;  // name -> kind, count
};

}  // namespace dra::testing
