#pragma once

#include <atomic>
#include <csignal>

namespace dra::check {

// While alive, SIGINT and SIGTERM set flag() instead of ending the process,
// so a command can stop waiting and still delete what it created. The
// previous handlers come back on destruction. One at a time per process.
class InterruptFlag {
 public:
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const std::atomic<bool>& flag() const { return raised_; }

 private:
  static void Handle(int signal);

  static std::atomic<bool> raised_;
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace dra::check
