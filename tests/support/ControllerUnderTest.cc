#include "tests/support/ControllerUnderTest.h"

#include <cstdlib>
#include <sstream>

namespace dra::testing {

std::string ControllerUnderTest::Binary() {
  const char* chosen = std::getenv("DRA_CONTROLLER_UNDER_TEST");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  return std::string(DRA_BINARY_DIR) + "/dra-controller";
}

std::optional<std::string> ControllerUnderTest::SanitizerReport(const std::string& output) {
  static const char* const kMarkers[] = {
      "ERROR: AddressSanitizer", "ERROR: LeakSanitizer",   "WARNING: ThreadSanitizer",
      "runtime error: ",         "ERROR: ThreadSanitizer", "ERROR: UndefinedBehaviorSanitizer"};
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    for (const char* marker : kMarkers) {
      if (line.find(marker) != std::string::npos) return line;
    }
  }
  return std::nullopt;
}

int ControllerUnderTest::ShutdownRounds() {
  const char* text = std::getenv("DRA_SHUTDOWN_ROUNDS");
  if (text == nullptr) return 1;
  int rounds = std::atoi(text);
  return rounds >= 1 && rounds <= 1000 ? rounds : 1;
}

}  // namespace dra::testing
