#include "src/base/BackgroundThread.h"

#include <spdlog/spdlog.h>

#include <exception>

#include "src/base/RealClock.h"

namespace kube {

BackgroundThread::BackgroundThread(std::shared_ptr<Clock> clock)
    : clock_(clock ? std::move(clock) : RealClock::Shared()) {}

BackgroundThread::~BackgroundThread() { Stop(); }

bool BackgroundThread::Start(std::function<void()> body) {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || stopping_) return false;
  thread_ = std::jthread([body = std::move(body)] {
    // A loop that throws must not take the process down with std::terminate.
    try {
      body();
    } catch (const std::exception& e) {
      spdlog::error("background loop ended by an exception: {}", e.what());
    } catch (...) {
      spdlog::error("background loop ended by an unknown exception");
    }
  });
  return true;
}

void BackgroundThread::RequestStop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
}

void BackgroundThread::Stop() {
  RequestStop();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool BackgroundThread::stopping() const {
  std::lock_guard lock(mu_);
  return stopping_;
}

bool BackgroundThread::SleepFor(Clock::Duration delay) { return SleepUntil(clock_->Now() + delay); }

bool BackgroundThread::SleepUntil(Clock::TimePoint deadline) {
  std::unique_lock lock(mu_);
  while (!stopping_ && clock_->Now() < deadline) clock_->WaitUntil(lock, cv_, deadline);
  return !stopping_;
}

}  // namespace kube
