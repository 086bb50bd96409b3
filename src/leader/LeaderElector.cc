#include "src/leader/LeaderElector.h"

#include <prometheus/gauge.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <random>

#include "src/base/Jitter.h"
#include "src/leader/LeaseLock.h"
#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

// client-go's JitterFactor, which bounds retry_period against renew_deadline.
constexpr double kJitterFactor = 1.2;
// How far candidates spread their polls; small so a released lease is taken
// within about one retry period.
constexpr double kCandidateJitter = 0.2;

// metav1.MicroTime: RFC 3339 with microseconds, UTC. Wall time, only written
// for people and other tools to read; the election itself never compares it.
std::string MicroTimeNow() {
  auto now = std::chrono::system_clock::now();
  auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof(buf) - n, ".%06lldZ", static_cast<long long>(micros % 1000000));
  return buf;
}

// Rounded up: a holder never advertises less than it was configured with.
int64_t Seconds(std::chrono::milliseconds d) {
  return std::max<int64_t>(
      1, static_cast<int64_t>(std::ceil(static_cast<double>(d.count()) / 1000.0)));
}

std::string Ms(std::chrono::milliseconds d) { return std::to_string(d.count()) + "ms"; }

Status Invalid(const std::string& message) { return Status(StatusCode::kInvalidArgument, message); }

}  // namespace

Status ValidateLeaderElectionConfig(const LeaderElectionConfig& config) {
  if (config.retry_period.count() <= 0) {
    return Invalid("--leader-elect-retry-period must be greater than zero, got " +
                   Ms(config.retry_period));
  }
  if (static_cast<double>(config.renew_deadline.count()) <=
      static_cast<double>(config.retry_period.count()) * kJitterFactor) {
    return Invalid("--leader-elect-renew-deadline (" + Ms(config.renew_deadline) +
                   ") must be greater than 1.2 x --leader-elect-retry-period (" +
                   Ms(config.retry_period) + ")");
  }
  if (config.lease_duration <= config.renew_deadline) {
    return Invalid("--leader-elect-lease-duration (" + Ms(config.lease_duration) +
                   ") must be greater than --leader-elect-renew-deadline (" +
                   Ms(config.renew_deadline) + ")");
  }
  if (config.name.empty()) return Invalid("--leader-election-id must not be empty");
  if (config.namespace_name.empty()) {
    return Invalid("--leader-election-namespace must not be empty");
  }
  if (config.identity.empty()) return Invalid("the leader election identity must not be empty");
  return Status::Ok();
}

LeaderElector::LeaderElector(std::shared_ptr<ResourceLock> lock, LeaderElectionConfig config)
    : lock_(std::move(lock)),
      config_(std::move(config)),
      clock_(config_.clock ? config_.clock : RealClock::Shared()),
      loop_(clock_),
      watchdog_(clock_) {
  if (!config_.metrics) return;
  auto family = MetricFamilyCache::Gauge(
      config_.metrics, "leader_election_master_status",
      "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 "
      "indicates master. 'name' is the string used to identify the lease.",
      {"name"});
  if (family.ok()) {
    master_status_ = &(*family)->Add({{"name", config_.name}});
  } else {
    spdlog::warn("leader election: no master status metric: {}", family.status().ToString());
  }
}

LeaderElector::LeaderElector(std::shared_ptr<RestClient> client, const LeaderElectionConfig& config)
    : LeaderElector(
          std::make_shared<LeaseLock>(std::move(client), config.namespace_name, config.name),
          config) {}

LeaderElector::~LeaderElector() { Stop(); }

std::string LeaderElector::DefaultIdentity() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  std::mt19937_64 rng(std::random_device{}());
  char suffix[17];
  std::snprintf(suffix, sizeof(suffix), "%016llx", static_cast<unsigned long long>(rng()));
  return std::string(host) + "_" + suffix;
}

Status LeaderElector::Start() {
  Status valid = ValidateLeaderElectionConfig(config_);
  if (!valid.ok()) return valid;
  if (!lock_) return Invalid("leader election needs a lock");
  {
    std::lock_guard lock(mu_);
    if (loop_running_ || loop_.running()) return Invalid("leader elector already started");
    loop_running_ = true;
    heartbeat_ = clock_->Now();
  }
  if (!loop_.Start([this] { Run(); })) {
    std::lock_guard lock(mu_);
    loop_running_ = false;
    return Invalid("leader elector already started");
  }
  return Status::Ok();
}

void LeaderElector::Stop() {
  loop_.Stop();
  watchdog_.Stop();
}

bool LeaderElector::IsLeader() const {
  std::lock_guard lock(mu_);
  return leading_ && clock_->Now() < deadline_;
}

std::string LeaderElector::ObservedLeader() const {
  std::lock_guard lock(mu_);
  return observed_.holder_identity;
}

std::optional<Clock::TimePoint> LeaderElector::LastRenewal() const {
  std::lock_guard lock(mu_);
  if (!leading_) return std::nullopt;
  return deadline_ - config_.renew_deadline;  // deadline_ is always set from a renewal's start
}

Clock::TimePoint LeaderElector::LoopHeartbeat() const {
  std::lock_guard lock(mu_);
  return heartbeat_;
}

bool LeaderElector::LoopRunning() const {
  std::lock_guard lock(mu_);
  return loop_running_;
}

void LeaderElector::Beat() {
  std::lock_guard lock(mu_);
  heartbeat_ = clock_->Now();
}

void LeaderElector::SetGauge(bool leading) {
  if (master_status_ != nullptr) master_status_->Set(leading ? 1 : 0);
}

void LeaderElector::Run() {
  spdlog::info("leader election: {} campaigning for lease {}", config_.identity, lock_->Describe());
  if (Campaign()) {
    if (config_.on_started_leading) config_.on_started_leading();
    // Started only now so that on_stopped_leading cannot overtake on_started_leading.
    watchdog_.Start([this] { Watchdog(); });
    Lead();
  }
  std::lock_guard lock(mu_);
  loop_running_ = false;
}

bool LeaderElector::Campaign() {
  while (true) {
    Attempt attempt = TryAcquireOrRenew();
    if (attempt.outcome == Outcome::kAcquired) {
      BecomeLeader(attempt.started);
      return true;
    }
    auto next = clock_->Now() + Jitter(config_.retry_period, kCandidateJitter);
    if (attempt.outcome == Outcome::kHeldByOther) next = std::min(next, attempt.expiry);
    if (!loop_.SleepUntil(next)) return false;
  }
}

void LeaderElector::Lead() {
  auto next = clock_->Now() + config_.retry_period;
  while (loop_.SleepUntil(next)) {
    if (!StillLeading()) return;
    next = clock_->Now() + config_.retry_period;
    Attempt attempt = TryAcquireOrRenew();
    if (attempt.outcome == Outcome::kAcquired) {
      if (!ExtendLeadership(attempt.started)) return;
    } else if (!StillLeading()) {
      return;
    }
  }
  StepDown();
}

LeaderElector::Attempt LeaderElector::TryAcquireOrRenew() {
  Beat();
  Attempt attempt = TryOnce();
  Beat();
  return attempt;
}

LeaderElector::Attempt LeaderElector::TryOnce() {
  Attempt attempt;
  attempt.started = clock_->Now();
  auto current = lock_->Get();
  if (current.ok()) {
    Observe(*current, clock_->Now());
    return Write(*current, attempt.started);
  }
  if (current.status().code() != StatusCode::kNotFound) {
    spdlog::warn("leader election: reading lease {} failed: {}", lock_->Describe(),
                 current.status().ToString());
    return attempt;
  }
  std::string now = MicroTimeNow();
  LeaderElectionRecord record{config_.identity, Seconds(config_.lease_duration), now, now, 0, ""};
  Status created = lock_->Create(record);
  if (!created.ok()) {
    spdlog::warn("leader election: creating lease {} failed: {}", lock_->Describe(),
                 created.ToString());
    return attempt;
  }
  Observe(record, clock_->Now());
  attempt.outcome = Outcome::kAcquired;
  return attempt;
}

// Renews the lock if this process holds it, takes it if it is free or
// expired; otherwise reports when it expires.
LeaderElector::Attempt LeaderElector::Write(const LeaderElectionRecord& current,
                                            Clock::TimePoint started) {
  Attempt attempt;
  attempt.started = started;
  bool mine = current.holder_identity == config_.identity;
  if (!mine && !current.holder_identity.empty()) {
    attempt.expiry = ObservedExpiry();
    if (clock_->Now() < attempt.expiry) {
      attempt.outcome = Outcome::kHeldByOther;
      return attempt;
    }
  }
  std::string now = MicroTimeNow();
  LeaderElectionRecord record{config_.identity,
                              Seconds(config_.lease_duration),
                              mine && !current.acquire_time.empty() ? current.acquire_time : now,
                              now,
                              current.leader_transitions + (mine ? 0 : 1),
                              ""};
  Status written = lock_->Update(record);
  if (!written.ok()) {
    if (written.code() != StatusCode::kConflict) {
      spdlog::warn("leader election: updating lease {} failed: {}", lock_->Describe(),
                   written.ToString());
    }
    return attempt;
  }
  Observe(record, clock_->Now());
  attempt.outcome = Outcome::kAcquired;
  return attempt;
}

// Dates a changed record to when it was received: it was stored before that.
void LeaderElector::Observe(const LeaderElectionRecord& record, Clock::TimePoint received) {
  std::string new_leader;
  {
    std::lock_guard lock(mu_);
    if (record == observed_) return;
    if (record.holder_identity != observed_.holder_identity) new_leader = record.holder_identity;
    observed_ = record;
    observed_at_ = received;
  }
  if (!new_leader.empty()) {
    spdlog::info("leader election: lease {} is held by {}", lock_->Describe(), new_leader);
    if (config_.on_new_leader) config_.on_new_leader(new_leader);
  }
}

Clock::TimePoint LeaderElector::ObservedExpiry() const {
  std::lock_guard lock(mu_);
  return observed_at_ + std::chrono::seconds(observed_.lease_duration_seconds);
}

void LeaderElector::BecomeLeader(Clock::TimePoint renewed) {
  {
    std::lock_guard lock(mu_);
    leading_ = true;
    deadline_ = renewed + config_.renew_deadline;
  }
  SetGauge(true);
  spdlog::info("leader election: {} became leader of {}", config_.identity, lock_->Describe());
}

bool LeaderElector::ExtendLeadership(Clock::TimePoint renewed) {
  {
    std::lock_guard lock(mu_);
    if (!leading_) return false;
    // A renewal that returns after the deadline comes too late: IsLeader()
    // has already said false and must not say true again.
    if (clock_->Now() < deadline_) {
      deadline_ = std::max(deadline_, renewed + config_.renew_deadline);
      return true;
    }
  }
  return !ExpireAtDeadline();
}

bool LeaderElector::StillLeading() const {
  std::lock_guard lock(mu_);
  return leading_;
}

void LeaderElector::Watchdog() {
  while (true) {
    Clock::TimePoint deadline;
    {
      std::lock_guard lock(mu_);
      if (!leading_) return;
      deadline = deadline_;
    }
    if (!watchdog_.SleepUntil(deadline)) return;
    if (ExpireAtDeadline()) return;
  }
}

bool LeaderElector::ExpireAtDeadline() {
  {
    std::lock_guard lock(mu_);
    if (!leading_) return true;
    if (clock_->Now() < deadline_) return false;
    leading_ = false;
  }
  SetGauge(false);
  spdlog::error("leader election: {} lost lease {} (not renewed within {})", config_.identity,
                lock_->Describe(), Ms(config_.renew_deadline));
  NotifyStopped();
  return true;
}

void LeaderElector::StepDown() {
  bool in_time;
  {
    std::lock_guard lock(mu_);
    if (!leading_) return;
    in_time = clock_->Now() < deadline_;
    leading_ = false;
  }
  SetGauge(false);
  // Only a leader still within its deadline may write; IsLeader() is false
  // before the release lets a standby in.
  if (in_time) Release();
  NotifyStopped();
}

void LeaderElector::Release() {
  std::string now = MicroTimeNow();
  LeaderElectionRecord released;
  {
    std::lock_guard lock(mu_);
    released.leader_transitions = observed_.leader_transitions;
  }
  released.lease_duration_seconds = 1;
  released.acquire_time = now;
  released.renew_time = now;
  Status written = lock_->Update(released);
  if (written.ok()) {
    spdlog::info("leader election: {} released lease {}", config_.identity, lock_->Describe());
  } else {
    spdlog::warn("leader election: releasing lease {} failed: {}", lock_->Describe(),
                 written.ToString());
  }
}

void LeaderElector::NotifyStopped() {
  if (config_.on_stopped_leading) config_.on_stopped_leading();
}

}  // namespace kube
