#pragma once

#include <optional>
#include <string>

namespace dra::testing {

// The dra-controller binary integration tests start: this build's, or the one
// DRA_CONTROLLER_UNDER_TEST names (a sanitizer build of the same sources, as
// hack/sanitize.sh runs the shutdown paths). A sanitized binary exits 86 on a
// report, so a test that expects 0 or 1 fails on one; SanitizerReport() also
// finds a report in the process's output whatever the exit code was.
class ControllerUnderTest {
 public:
  static std::string Binary();
  // The first line of a sanitizer report in `output`, or nullopt when none.
  static std::optional<std::string> SanitizerReport(const std::string& output);
  // DRA_SHUTDOWN_ROUNDS (default 1): how often the shutdown paths repeat.
  static int ShutdownRounds();
};

}  // namespace dra::testing
