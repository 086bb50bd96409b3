#include "tests/chaos/EventAudit.h"

namespace dra::testing {

EventAudit::EventAudit(const nlohmann::json& events) {
  for (const auto& e : events) {
    if (e.value("/source/component"_json_pointer, std::string()) != "dra-controller") continue;
    int count = e.value("count", 1);
    std::string reason = e.value("reason", "");
    by_reason_[reason] += count;
    const auto& object = e.value("involvedObject", nlohmann::json::object());
    std::string key = object.value("kind", "") + "/" + object.value("namespace", "") + "/" +
                      object.value("name", "") + "/" + object.value("uid", "") + " " +
                      e.value("type", "") + " " + reason + ": " + e.value("message", "");
    ++objects_by_key_[key];
    first_seen_by_key_[key].push_back(LeaderTerm::Second(e.value("firstTimestamp", "")));
    described_by_key_[key].push_back(
        e.value("/metadata/name"_json_pointer, std::string()) + " " +
        e.value("firstTimestamp", "") + ".." + e.value("lastTimestamp", "") +
        " count=" + std::to_string(count) + " apiVersion=" + object.value("apiVersion", ""));
    by_name_[e.value("/metadata/namespace"_json_pointer, std::string()) + "/" +
             e.value("/metadata/name"_json_pointer, std::string())] = {object.value("kind", ""),
                                                                       count};
  }
}

int EventAudit::MaxObjectsPerKey() const {
  int most = 0;
  for (const auto& [key, objects] : objects_by_key_) most = std::max(most, objects);
  return most;
}

int EventAudit::KeysWithSeveralObjects() const {
  int keys = 0;
  for (const auto& [key, objects] : objects_by_key_) keys += objects > 1 ? 1 : 0;
  return keys;
}

std::vector<std::string> EventAudit::DuplicatesWithinOneTerm(
    const std::vector<LeaderTerm>& terms) const {
  std::vector<std::string> out;
  for (const auto& [key, seen] : first_seen_by_key_) {
    if (seen.size() < 2) continue;
    for (const auto& term : terms) {
      int in_term = 0;
      std::string which;
      for (size_t i = 0; i < seen.size(); ++i) {
        if (!term.StrictlyInside(seen[i])) continue;
        ++in_term;
        which += " [" + described_by_key_.at(key)[i] + "]";
      }
      if (in_term > 1) {
        out.push_back(key + ": " + std::to_string(in_term) + " Event objects in the term " +
                      term.from + ".." + term.to + ":" + which);
      }
    }
  }
  return out;
}

std::pair<std::string, int> EventAudit::MostObjects() const {
  std::pair<std::string, int> most{"", 0};
  for (const auto& [key, objects] : objects_by_key_) {
    if (objects > most.second) most = {key, objects};
  }
  return most;
}

std::map<std::string, int> EventAudit::Counts(const std::string& kind) const {
  std::map<std::string, int> out;
  for (const auto& [name, entry] : by_name_) {
    if (entry.first == kind) out[name] = entry.second;
  }
  return out;
}

}  // namespace dra::testing
