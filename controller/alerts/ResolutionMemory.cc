#include "controller/alerts/ResolutionMemory.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "src/base/JsonShape.h"

namespace dra::alerts {
namespace {

using nlohmann::json;

kube::Status NotAMemory(const std::string& why) {
  return kube::Status(kube::StatusCode::kParseError, "not an alert resolution memory: " + why);
}

}  // namespace

kube::Result<ResolutionMemory> ResolutionMemory::FromText(const std::string& text) {
  ResolutionMemory memory;
  if (text.empty()) return memory;
  // Anyone who may edit the ConfigMap writes this text.
  kube::Status shape = kube::JsonShape::Check(text, kMaxDepth, kMaxValues);
  if (!shape.ok()) return NotAMemory(shape.message());
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object()) return NotAMemory("not a JSON object");
  for (const auto& [health, alerts] : document.items()) {
    if (!alerts.is_object()) return NotAMemory("the alerts of " + health + " are not an object");
    for (const auto& [key, at] : alerts.items()) {
      if (!at.is_number_integer()) return NotAMemory("a time is not an integer");
      memory.Add({health, key, at.get<int64_t>()});
    }
  }
  return memory;
}

std::string ResolutionMemory::ToText() const {
  json document = json::object();
  for (const auto& [health, alerts] : by_health_) {
    for (const auto& [key, at] : alerts) document[health][key] = at;
  }
  return document.dump();
}

void ResolutionMemory::Add(const Entry& entry) {
  int64_t& at = by_health_[entry.health].try_emplace(entry.key, entry.at_ms).first->second;
  at = std::max(at, entry.at_ms);
}

void ResolutionMemory::Prune() {
  int64_t newest = 0;
  for (const auto& [health, alerts] : by_health_) {
    for (const auto& [key, at] : alerts) newest = std::max(newest, at);
  }
  for (auto& [health, alerts] : by_health_) {
    std::erase_if(alerts, [&](const auto& item) { return newest - item.second > kKeepMs; });
  }
  std::erase_if(by_health_, [](const auto& item) { return item.second.empty(); });
  size_t count = size();
  if (count <= kMaxEntries) return;
  std::vector<std::tuple<int64_t, std::string, std::string>> oldest;
  for (const auto& [health, alerts] : by_health_) {
    for (const auto& [key, at] : alerts) oldest.emplace_back(at, health, key);
  }
  std::sort(oldest.begin(), oldest.end());
  for (size_t i = 0; i < count - kMaxEntries; ++i) {
    const auto& [at, health, key] = oldest[i];
    auto it = by_health_.find(health);
    it->second.erase(key);
    if (it->second.empty()) by_health_.erase(it);
  }
}

std::vector<std::pair<std::string, int64_t>> ResolutionMemory::For(
    const std::string& health) const {
  auto it = by_health_.find(health);
  if (it == by_health_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

size_t ResolutionMemory::size() const {
  size_t count = 0;
  for (const auto& [health, alerts] : by_health_) count += alerts.size();
  return count;
}

}  // namespace dra::alerts
