#include "tests/bench/fleet/StreamMarks.h"

namespace dra::bench {

dra::testing::StreamStep StreamMarks::Mark(const std::string& key) {
  return dra::testing::StreamStep::WaitFor([this, key] {
    Record(key);
    return true;
  });
}

void StreamMarks::Record(const std::string& key) {
  std::lock_guard lock(mu_);
  at_.emplace(key, Clock::now());
}

std::optional<StreamMarks::Clock::time_point> StreamMarks::At(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = at_.find(key);
  return it == at_.end() ? std::nullopt : std::optional(it->second);
}

}  // namespace dra::bench
