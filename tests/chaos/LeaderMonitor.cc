#include "tests/chaos/LeaderMonitor.h"

#include <spdlog/spdlog.h>

namespace dra::testing {

LeaderMonitor::LeaderMonitor(ReplicaSet& replicas, std::chrono::milliseconds interval)
    : replicas_(replicas), interval_(interval) {}

void LeaderMonitor::Start() {
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
}

void LeaderMonitor::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void LeaderMonitor::Run() {
  while (!stop_) {
    auto next = std::chrono::steady_clock::now() + interval_;
    int leaders = 0;
    for (int status : replicas_.MasterStatuses(std::chrono::milliseconds(300))) {
      leaders += status == 1 ? 1 : 0;
    }
    ++rounds_;
    if (leaders > 1) {
      ++both_leading_rounds_;
      spdlog::error("chaos: {} replicas report leading at once", leaders);
    }
    if (leaders == 0) ++leaderless_rounds_;
    replicas_.Supervise();
    std::this_thread::sleep_until(next);
  }
}

}  // namespace dra::testing
