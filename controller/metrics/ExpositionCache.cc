#include "controller/metrics/ExpositionCache.h"

namespace dra::metrics {

void ExpositionCache::Store(std::string text) {
  auto shared = std::make_shared<const std::string>(std::move(text));
  std::lock_guard lock(mu_);
  text_.swap(shared);  // the old text is freed outside the lock
}

std::shared_ptr<const std::string> ExpositionCache::Load() const {
  std::lock_guard lock(mu_);
  return text_;
}

}  // namespace dra::metrics
