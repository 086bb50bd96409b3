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
  static kube::Result<std::unique_ptr<BackgroundProcess>> Start(
      const std::vector<std::string>& argv);
  ~BackgroundProcess();

  pid_t pid() const { return pid_; }
  std::string Output() const;
  void Signal(int signal) const;
  // Waits for the process to exit; its exit code, or nullopt on timeout.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  bool Running();

 private:
  BackgroundProcess() = default;

  TempDir dir_;
  std::string output_path_;
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
};

}  // namespace dra::testing
