#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "src/base/Result.h"

namespace dra::testing {

struct ProcessOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs a program to completion with the given stdin, capturing stdout and
// stderr. The child is killed (by its PID) if it outlives the timeout.
class Subprocess {
 public:
  static kube::Result<ProcessOutput> Run(const std::vector<std::string>& argv,
                                         const std::string& stdin_data = "",
                                         std::chrono::seconds timeout = std::chrono::seconds(60));
};

}  // namespace dra::testing
