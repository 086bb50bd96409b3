#include "tests/chaos/ReplicaSet.h"

#include <signal.h>

#include <fstream>

#include "tests/chaos/MetricsText.h"

namespace dra::testing {

using namespace std::chrono_literals;

ReplicaSet::ReplicaSet(std::string kubeconfig, std::vector<std::string> flags, std::string log_dir)
    : kubeconfig_(std::move(kubeconfig)), flags_(std::move(flags)), log_dir_(std::move(log_dir)) {}

ReplicaSet::~ReplicaSet() { StopAll(15s); }

kube::Status ReplicaSet::Start(int replicas) {
  std::lock_guard lock(mu_);
  slots_.resize(replicas);
  for (size_t i = 0; i < slots_.size(); ++i) KUBE_RETURN_IF_ERROR(StartSlot(i));
  return kube::Status::Ok();
}

kube::Status ReplicaSet::StartSlot(size_t slot) {
  std::string name = "replica-" + std::to_string(++started_);
  auto replica = ChaosReplica::Start(kubeconfig_, flags_, name);
  if (!replica.ok()) return replica.status();
  slots_[slot] = std::move(*replica);
  return kube::Status::Ok();
}

void ReplicaSet::Record(size_t slot, int code, bool killed, bool stopped) {
  ChaosReplica& r = *slots_[slot];
  std::string log = r.process().Output();
  std::ofstream(log_dir_ + "/" + r.name() + ".log") << log;
  ReplicaExit exit{r.name(), code, killed, false, stopped, LeaderTerm::FromLog(log)};
  exit.leadership_lost = log.find("leader election lost") != std::string::npos;
  exits_.push_back(exit);
  slots_[slot].reset();
}

std::vector<int> ReplicaSet::MasterStatuses(std::chrono::milliseconds timeout) {
  std::lock_guard lock(mu_);
  std::vector<int> out;
  for (const auto& r : slots_) out.push_back(r ? r->MasterStatus(timeout) : -1);
  return out;
}

void ReplicaSet::Supervise() {
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i] && slots_[i]->process().Running()) continue;
    if (slots_[i]) Record(i, slots_[i]->process().Wait(0ms).value_or(-1), false, false);
    (void)StartSlot(i);  // retried at the next round if it fails
  }
}

std::string ReplicaSet::KillLeader() {
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i] || slots_[i]->MasterStatus(500ms) != 1) continue;
    std::string name = slots_[i]->name();
    slots_[i]->process().Signal(SIGKILL);
    Record(i, slots_[i]->process().Wait(10s).value_or(-1), true, false);
    (void)StartSlot(i);
    return name;
  }
  return "";
}

std::string ReplicaSet::LeaderMetrics() {
  std::lock_guard lock(mu_);
  for (const auto& r : slots_) {
    if (!r) continue;
    auto page = r->Scrape(2s);
    if (page.ok() && MetricsText::Parse(*page).Sum("leader_election_master_status") > 0) {
      return *page;
    }
  }
  return "";
}

void ReplicaSet::StopAll(std::chrono::seconds timeout) {
  std::lock_guard lock(mu_);
  for (auto& r : slots_) {
    if (r) r->process().Signal(SIGTERM);
  }
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i]) continue;
    auto code = slots_[i]->process().Wait(timeout);
    if (!code) slots_[i]->process().Signal(SIGKILL);
    Record(i, code.value_or(-1), false, true);
  }
  slots_.clear();
}

std::vector<ReplicaExit> ReplicaSet::exits() const {
  std::lock_guard lock(mu_);
  return exits_;
}

int ReplicaSet::started() const {
  std::lock_guard lock(mu_);
  return started_;
}

}  // namespace dra::testing
