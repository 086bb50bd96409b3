#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace dra::testing {

// The knobs of a chaos run, from the environment (hack/chaos.sh sets them):
//   CHAOS_MINUTES         leader kill loop length (default 10)
//   CHAOS_KILL_INTERVAL   seconds between leader kills (default 30)
//   CHAOS_FAULT_ROUNDS    rounds of kube-apiserver, etcd, both restarts (default 2)
//   CHAOS_SEED            the change driver's seed (default: random, printed)
//   DRA_CHAOS_AUDIT_LOG   kube-apiserver's audit log (write counts; unset: not counted)
//   DRA_CHAOS_ARTIFACTS   where replica logs and the summary go (default: a new /tmp dir)
struct ChaosOptions {
  std::chrono::seconds kill_loop{600};
  std::chrono::seconds kill_interval{30};
  int fault_rounds = 2;
  uint32_t seed = 0;
  std::string audit_log;
  std::string artifacts;

  static ChaosOptions FromEnvironment();
};

}  // namespace dra::testing
