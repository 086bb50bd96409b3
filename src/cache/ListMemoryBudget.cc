#include "src/cache/ListMemoryBudget.h"

#include <algorithm>

namespace kube {

ListMemoryBudget::ListMemoryBudget(size_t total_bytes, size_t per_list_bytes)
    : total_(total_bytes), per_list_(per_list_bytes) {}

ListMemoryBudget::Reservation& ListMemoryBudget::Reservation::operator=(
    Reservation&& other) noexcept {
  if (this != &other) {
    if (budget_ != nullptr) budget_->Release();
    budget_ = other.budget_;
    other.budget_ = nullptr;
  }
  return *this;
}

ListMemoryBudget::Reservation::~Reservation() {
  if (budget_ != nullptr) budget_->Release();
}

ListMemoryBudget::Reservation ListMemoryBudget::Acquire(const std::function<bool()>& stopping,
                                                        std::chrono::milliseconds poll) {
  std::unique_lock lock(mu_);
  while (in_use_ != 0 && in_use_ + per_list_ > total_) {
    if (stopping && stopping()) return Reservation();
    released_.wait_for(lock, poll);
  }
  in_use_ += per_list_;
  peak_ = std::max(peak_, in_use_);
  return Reservation(this);
}

void ListMemoryBudget::Release() {
  {
    std::lock_guard lock(mu_);
    in_use_ -= per_list_;
  }
  released_.notify_all();
}

size_t ListMemoryBudget::in_use_bytes() const {
  std::lock_guard lock(mu_);
  return in_use_;
}

size_t ListMemoryBudget::peak_bytes() const {
  std::lock_guard lock(mu_);
  return peak_;
}

}  // namespace kube
