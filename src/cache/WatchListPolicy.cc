#include "src/cache/WatchListPolicy.h"

namespace kube {

WatchListPolicy::WatchListPolicy(WatchListMode mode, Clock::Duration retry_after)
    : mode_(mode), retry_after_(retry_after) {}

bool WatchListPolicy::ShouldTry(bool supported, Clock::TimePoint now) const {
  if (!supported || mode_ == WatchListMode::kOff) return false;
  if (mode_ == WatchListMode::kOn) return true;
  return !fell_back_ || now - fell_back_at_ >= retry_after_;
}

bool WatchListPolicy::ShouldFallBack(const Status& status, bool no_bookmark) const {
  if (mode_ != WatchListMode::kAuto) return false;
  return no_bookmark || RefusesParameters(status);
}

void WatchListPolicy::FellBack(Clock::TimePoint now) {
  fell_back_ = true;
  fell_back_at_ = now;
}

bool WatchListPolicy::RefusesParameters(const Status& status) {
  return status.code() == StatusCode::kInvalid || status.code() == StatusCode::kInvalidArgument;
}

}  // namespace kube
