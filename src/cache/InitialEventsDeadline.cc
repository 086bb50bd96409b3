#include "src/cache/InitialEventsDeadline.h"

namespace kube {

InitialEventsDeadline::InitialEventsDeadline(std::chrono::milliseconds idle, CancelFlag& stream)
    : idle_(idle),
      stream_(stream),
      last_data_(std::chrono::steady_clock::now()),
      thread_([this] { Run(); }) {}

InitialEventsDeadline::~InitialEventsDeadline() {
  Disarm();
  thread_.join();
}

void InitialEventsDeadline::Touch() {
  std::lock_guard lock(mu_);
  last_data_ = std::chrono::steady_clock::now();
}

void InitialEventsDeadline::Disarm() {
  {
    std::lock_guard lock(mu_);
    armed_ = false;
  }
  changed_.notify_all();
}

bool InitialEventsDeadline::fired() const {
  std::lock_guard lock(mu_);
  return fired_;
}

void InitialEventsDeadline::Run() {
  std::unique_lock lock(mu_);
  while (armed_) {
    auto deadline = last_data_ + idle_;
    if (std::chrono::steady_clock::now() >= deadline) {
      fired_ = true;
      armed_ = false;
      lock.unlock();
      stream_.Cancel();
      return;
    }
    changed_.wait_until(lock, deadline);
  }
}

}  // namespace kube
