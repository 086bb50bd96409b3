#include "src/cache/ReflectorHealth.h"

#include <algorithm>

namespace kube {
namespace {

Clock::TimePoint FromRep(Clock::Duration::rep rep) {
  return Clock::TimePoint(Clock::Duration(rep));
}

long long Seconds(Clock::Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

long long Millis(Clock::Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

ReflectorHealth::ReflectorHealth(std::shared_ptr<Clock> clock, std::string resource,
                                 Clock::Duration stall_timeout,
                                 std::chrono::milliseconds watch_ready_timeout)
    : clock_(std::move(clock)),
      resource_(std::move(resource)),
      stall_timeout_(stall_timeout),
      watch_ready_timeout_(watch_ready_timeout) {}

Clock::Duration::rep ReflectorHealth::Now() const {
  return clock_->Now().time_since_epoch().count();
}

void ReflectorHealth::Started() {
  Succeeded();
  running_ = true;
}

void ReflectorHealth::Stopped() { running_ = false; }

void ReflectorHealth::Beat() { heartbeat_ = Now(); }

void ReflectorHealth::Succeeded() {
  auto now = Now();
  heartbeat_ = now;
  last_success_ = now;
}

void ReflectorHealth::WatchOpened() {
  stream_began_ = Now();
  watching_ = true;
}

void ReflectorHealth::WatchClosed() { watching_ = false; }

void ReflectorHealth::EventArrived() { last_event_ = heartbeat_.load(); }

Clock::TimePoint ReflectorHealth::heartbeat() const { return FromRep(heartbeat_); }

Clock::TimePoint ReflectorHealth::last_success() const { return FromRep(last_success_); }

Status ReflectorHealth::CheckProgress() const {
  if (!running_) return Status::Ok();
  auto quiet = clock_->Now() - heartbeat();
  if (quiet <= stall_timeout_) return Status::Ok();
  return Status(StatusCode::kUnavailable, resource_ + ": reflector made no progress for " +
                                              std::to_string(Seconds(quiet)) + " s (limit " +
                                              std::to_string(Seconds(stall_timeout_)) + " s)");
}

Status ReflectorHealth::CheckFreshness(Clock::Duration max_staleness) const {
  if (!running_) return Status::Ok();
  auto stale = clock_->Now() - last_success();
  if (stale <= max_staleness) return Status::Ok();
  return Status(StatusCode::kUnavailable, resource_ + ": no successful list or watch for " +
                                              std::to_string(Seconds(stale)) + " s (limit " +
                                              std::to_string(Seconds(max_staleness)) + " s)");
}

Status ReflectorHealth::CheckWatchProgress() const {
  if (!running_ || !watching_) return Status::Ok();
  auto since = FromRep(std::max(stream_began_.load(), last_event_.load()));
  auto quiet = clock_->Now() - since;
  if (quiet <= watch_ready_timeout_) return Status::Ok();
  return Status(StatusCode::kUnavailable, resource_ + ": watch delivered no complete event for " +
                                              std::to_string(Millis(quiet)) + " ms (limit " +
                                              std::to_string(watch_ready_timeout_.count()) +
                                              " ms)");
}

}  // namespace kube
