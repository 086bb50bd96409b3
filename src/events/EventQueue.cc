#include "src/events/EventQueue.h"

namespace kube {

EventQueue::EventQueue(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

EventQueue::PushResult EventQueue::Push(CorrelatedEvent event) {
  std::string key = KeyOf(event);
  {
    std::lock_guard lock(mu_);
    if (closed_) return PushResult::kClosed;
    auto it = pending_.find(key);
    if (it != pending_.end()) {
      event.is_new = event.is_new || it->second.is_new;
      it->second = std::move(event);
      return PushResult::kCoalesced;
    }
    if (pending_.size() >= capacity_) return PushResult::kFull;
    pending_.emplace(key, std::move(event));
    order_.push_back(std::move(key));
  }
  changed_.notify_all();
  return PushResult::kQueued;
}

std::optional<CorrelatedEvent> EventQueue::Pop() {
  std::optional<CorrelatedEvent> next;
  {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [this] { return !order_.empty() || closed_; });
    if (order_.empty()) return std::nullopt;
    auto it = pending_.find(order_.front());
    next = std::move(it->second);
    pending_.erase(it);
    order_.pop_front();
  }
  changed_.notify_all();
  return next;
}

void EventQueue::Close() {
  {
    std::lock_guard lock(mu_);
    closed_ = true;
  }
  changed_.notify_all();
}

bool EventQueue::WaitUntilEmpty(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mu_);
  return changed_.wait_until(lock, deadline, [this] { return order_.empty(); });
}

std::vector<CorrelatedEvent> EventQueue::TakeAll() {
  std::vector<CorrelatedEvent> taken;
  {
    std::lock_guard lock(mu_);
    for (const auto& key : order_) {
      auto it = pending_.find(key);
      if (it != pending_.end()) taken.push_back(std::move(it->second));
    }
    order_.clear();
    pending_.clear();
  }
  changed_.notify_all();
  return taken;
}

std::string EventQueue::KeyOf(const CorrelatedEvent& event) {
  return event.namespace_name + "/" + event.name;
}

}  // namespace kube
