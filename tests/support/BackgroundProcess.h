#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "tests/support/TempDir.h"

namespace dra::testing {

// A child process running alongside a test (e.g. a dra-controller replica).
// Its stdout and stderr go to a file the test can read while it runs. The
// destructor kills it (by PID) if it is still running.
class BackgroundProcess {
 public:
  struct Options {
    // Start it as the leader of a new process group, as a shell starts a job,
    // so SignalGroup() reaches it and everything it started (Ctrl-C).
    bool new_process_group = false;
  };

  static kube::Result<std::unique_ptr<BackgroundProcess>> Start(
      const std::vector<std::string>& argv, Options options);
  static kube::Result<std::unique_ptr<BackgroundProcess>> Start(
      const std::vector<std::string>& argv) {
    return Start(argv, Options{});
  }
  ~BackgroundProcess();

  pid_t pid() const { return pid_; }
  std::string Output() const;
  void Signal(int signal) const;
  // The whole process group (only with new_process_group).
  void SignalGroup(int signal) const;
  // Waits for the process to exit; its exit code, or nullopt on timeout.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  bool Running();

 private:
  BackgroundProcess() = default;

  TempDir dir_;
  std::string output_path_;
  pid_t pid_ = -1;
  bool group_leader_ = false;
  std::optional<int> exit_code_;
};

}  // namespace dra::testing
