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

namespace kube {
namespace {

const ResourceType kLeases{"coordination.k8s.io", "v1", "leases", true, "Lease"};

// metav1.MicroTime: RFC 3339 with microseconds, UTC.
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

// Lease fields may be absent or null; nlohmann's value() throws on null.
std::string StringField(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

int64_t IntField(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return 0;
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

nlohmann::json SpecOf(const nlohmann::json& lease) {
  if (!lease.is_object()) return nlohmann::json::object();
  auto it = lease.find("spec");
  return it != lease.end() && it->is_object() ? *it : nlohmann::json::object();
}

int64_t Seconds(std::chrono::milliseconds d) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(d.count() / 1000.0)));
}

}  // namespace

LeaderElector::LeaderElector(std::shared_ptr<RestClient> client, LeaderElectionConfig config)
    : client_(std::move(client)), config_(std::move(config)) {
  path_ = kLeases.ItemPath(config_.namespace_name, config_.name);
  if (config_.metrics != nullptr) {
    master_status_ = &prometheus::BuildGauge()
                          .Name("leader_election_master_status")
                          .Help(
                              "Gauge of if the reporting system is master of the relevant lease, "
                              "0 indicates backup, 1 indicates master. 'name' is the string used "
                              "to identify the lease.")
                          .Register(*config_.metrics)
                          .Add({{"name", config_.name}});
  }
}

LeaderElector::~LeaderElector() { Stop(); }

std::string LeaderElector::DefaultIdentity() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  std::mt19937_64 rng(std::random_device{}());
  char suffix[17];
  std::snprintf(suffix, sizeof(suffix), "%016llx", static_cast<unsigned long long>(rng()));
  return std::string(host) + "_" + suffix;
}

void LeaderElector::Start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Run(); });
}

void LeaderElector::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string LeaderElector::ObservedLeader() const {
  std::lock_guard lock(mu_);
  return observed_holder_;
}

bool LeaderElector::WaitOrStop(std::chrono::milliseconds delay) {
  std::unique_lock lock(mu_);
  return !stop_cv_.wait_for(lock, delay, [this] { return stopping_; });
}

void LeaderElector::SetLeading(bool leading) {
  leading_ = leading;
  if (master_status_ != nullptr) master_status_->Set(leading ? 1 : 0);
}

void LeaderElector::Run() {
  spdlog::info("leader election: {} campaigning for lease {}/{}", config_.identity,
               config_.namespace_name, config_.name);
  while (!TryAcquireOrRenew()) {
    if (!WaitOrStop(CandidateDelay())) return;
  }
  SetLeading(true);
  spdlog::info("leader election: {} became leader of {}/{}", config_.identity,
               config_.namespace_name, config_.name);
  if (config_.on_started_leading) config_.on_started_leading();

  auto last_renew = std::chrono::steady_clock::now();
  while (WaitOrStop(config_.retry_period)) {
    if (TryAcquireOrRenew()) {
      last_renew = std::chrono::steady_clock::now();
    } else if (PastRenewDeadline(last_renew)) {
      SetLeading(false);
      spdlog::error("leader election: {} lost lease {}/{} (not renewed within {} ms)",
                    config_.identity, config_.namespace_name, config_.name,
                    config_.renew_deadline.count());
      if (config_.on_stopped_leading) config_.on_stopped_leading();
      return;
    }
  }
  Release();
  SetLeading(false);
  if (config_.on_stopped_leading) config_.on_stopped_leading();
}

std::chrono::milliseconds LeaderElector::CandidateDelay() const {
  auto delay = Jitter(config_.retry_period, 0.2);
  std::lock_guard lock(mu_);
  if (observed_holder_.empty() || observed_holder_ == config_.identity) return delay;
  auto expiry = observed_at_ + observed_duration_;
  auto until_expiry = std::chrono::duration_cast<std::chrono::milliseconds>(
                          expiry - std::chrono::steady_clock::now()) +
                      std::chrono::milliseconds(1);
  return std::clamp(until_expiry, std::chrono::milliseconds(1), delay);
}

bool LeaderElector::PastRenewDeadline(std::chrono::steady_clock::time_point last_renew) const {
  // The next attempt would start after a retry_period; with requests timing
  // out after about a retry_period it ends by the deadline at the latest.
  auto next_attempt = std::chrono::steady_clock::now() + config_.retry_period;
  return next_attempt - last_renew > config_.renew_deadline;
}

bool LeaderElector::TryAcquireOrRenew() {
  std::string now = MicroTimeNow();
  auto read_sent = std::chrono::steady_clock::now();
  nlohmann::json spec = {{"holderIdentity", config_.identity},
                         {"leaseDurationSeconds", Seconds(config_.lease_duration)},
                         {"acquireTime", now},
                         {"renewTime", now},
                         {"leaseTransitions", 0}};
  auto current = client_->Get(path_);
  if (current.status().code() == StatusCode::kNotFound) {
    nlohmann::json lease = {
        {"apiVersion", "coordination.k8s.io/v1"},
        {"kind", "Lease"},
        {"metadata", {{"name", config_.name}, {"namespace", config_.namespace_name}}},
        {"spec", spec}};
    return client_->Create(kLeases, config_.namespace_name, lease).ok();
  }
  if (!current.ok()) {
    spdlog::warn("leader election: reading lease failed: {}", current.status().ToString());
    return false;
  }
  const nlohmann::json old = SpecOf(*current);
  std::string holder = StringField(old, "holderIdentity");
  std::string renewed = StringField(old, "renewTime");
  auto duration = std::chrono::seconds(IntField(old, "leaseDurationSeconds"));
  std::chrono::steady_clock::time_point observed_at;
  {
    std::lock_guard lock(mu_);
    if (holder != observed_holder_ || renewed != observed_renew_time_) {
      if (holder != observed_holder_ && config_.on_new_leader && !holder.empty())
        config_.on_new_leader(holder);
      observed_holder_ = holder;
      observed_renew_time_ = renewed;
      observed_at_ = last_read_sent_.value_or(std::chrono::steady_clock::now());
    }
    observed_duration_ = duration;
    last_read_sent_ = read_sent;
    observed_at = observed_at_;
  }
  bool held_by_other = !holder.empty() && holder != config_.identity;
  if (held_by_other && observed_at + duration > std::chrono::steady_clock::now()) return false;

  if (holder == config_.identity) {
    std::string acquired = StringField(old, "acquireTime");
    spec["acquireTime"] = acquired.empty() ? now : acquired;
    spec["leaseTransitions"] = IntField(old, "leaseTransitions");
  } else {
    spec["leaseTransitions"] = IntField(old, "leaseTransitions") + 1;
  }
  nlohmann::json updated = current->is_object() ? *current : nlohmann::json::object();
  updated["spec"] = spec;
  auto written = client_->Update(path_, updated);
  if (!written.ok()) {
    if (written.status().code() != StatusCode::kConflict) {
      spdlog::warn("leader election: updating lease failed: {}", written.status().ToString());
    }
    return false;
  }
  std::lock_guard lock(mu_);
  observed_holder_ = config_.identity;
  observed_renew_time_ = now;
  observed_at_ = std::chrono::steady_clock::now();
  return true;
}

void LeaderElector::Release() {
  auto current = client_->Get(path_);
  if (!current.ok() || StringField(SpecOf(*current), "holderIdentity") != config_.identity) return;
  std::string now = MicroTimeNow();
  nlohmann::json released = *current;
  released["spec"]["holderIdentity"] = "";
  released["spec"]["leaseDurationSeconds"] = 1;
  released["spec"]["renewTime"] = now;
  released["spec"]["acquireTime"] = now;
  auto written = client_->Update(path_, released);
  if (written.ok()) {
    spdlog::info("leader election: {} released lease {}/{}", config_.identity,
                 config_.namespace_name, config_.name);
  } else {
    spdlog::warn("leader election: releasing lease failed: {}", written.status().ToString());
  }
}

}  // namespace kube
