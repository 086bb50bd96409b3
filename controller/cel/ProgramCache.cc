#include "controller/cel/ProgramCache.h"

namespace dra::cel {

kube::Result<std::shared_ptr<const Program>> ProgramCache::Get(std::string_view expression) {
  std::string key(expression);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  }
  // Compile outside the lock; a racing duplicate compile is harmless.
  Entry compiled = Program::Compile(expression);
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.size() >= max_entries_) entries_.clear();
  auto [it, inserted] = entries_.emplace(std::move(key), std::move(compiled));
  return it->second;
}

size_t ProgramCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace dra::cel
