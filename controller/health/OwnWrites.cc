#include "controller/health/OwnWrites.h"

namespace dra::health {

void OwnWrites::Record(const std::string& key, Write write, kube::Clock::TimePoint now) {
  std::lock_guard lock(mu_);
  if (!write.health_rv && !write.rule_rv) {
    entries_.erase(key);
    return;
  }
  entries_[key] = {std::move(write), now + patience_};
}

std::optional<kube::Clock::Duration> OwnWrites::Wait(const std::string& key,
                                                     const std::string& health_rv,
                                                     const std::string& rule_rv,
                                                     kube::Clock::TimePoint now) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  const Write& write = it->second.write;
  bool stale = (write.health_rv && *write.health_rv == health_rv) ||
               (write.rule_rv && *write.rule_rv == rule_rv);
  if (!stale || now >= it->second.until) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.until - now;
}

void OwnWrites::Forget(const std::string& key) {
  std::lock_guard lock(mu_);
  entries_.erase(key);
}

}  // namespace dra::health
