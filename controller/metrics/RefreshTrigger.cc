#include "controller/metrics/RefreshTrigger.h"

namespace dra::metrics {

RefreshTrigger::RefreshTrigger(std::function<uint64_t()> version)
    : version_(std::move(version)), flag_(std::make_shared<std::atomic<bool>>(false)) {}

bool RefreshTrigger::TakeChange() {
  bool flagged = flag_->exchange(false);
  uint64_t version = version_();
  bool moved = version != rendered_version_;
  rendered_version_ = version;
  bool changed = first_ || flagged || moved;
  first_ = false;
  return changed;
}

}  // namespace dra::metrics
