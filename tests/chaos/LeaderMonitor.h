#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#include "tests/chaos/ReplicaSet.h"

namespace dra::testing {

// Polls every replica's leader_election_master_status back to back every
// `interval` (each with a short timeout: a killed process cannot answer),
// replaces replicas that exited on their own, and counts the rounds in which
// more than one replica reported leading (the invariant: never).
class LeaderMonitor {
 public:
  LeaderMonitor(ReplicaSet& replicas, std::chrono::milliseconds interval);
  ~LeaderMonitor() { Stop(); }

  void Start();
  void Stop();

  int rounds() const { return rounds_; }
  int both_leading_rounds() const { return both_leading_rounds_; }
  int leaderless_rounds() const { return leaderless_rounds_; }

 private:
  void Run();

  ReplicaSet& replicas_;
  std::chrono::milliseconds interval_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> rounds_{0};
  std::atomic<int> both_leading_rounds_{0};
  std::atomic<int> leaderless_rounds_{0};
};

}  // namespace dra::testing
