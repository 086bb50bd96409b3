#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "src/base/Status.h"

namespace dra::testing {

// Polls `condition` until it holds or `timeout` passes. Returns a Timeout
// status naming what was awaited and the last observation reported by
// `describe` (if given), so a failing test explains itself.
inline kube::Status WaitFor(const std::string& what, std::chrono::milliseconds timeout,
                            const std::function<bool()>& condition,
                            const std::function<std::string()>& describe = nullptr) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto interval = std::chrono::milliseconds(20);
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      std::string msg =
          "timed out after " + std::to_string(timeout.count()) + "ms waiting for " + what;
      if (describe) msg += "; last seen: " + describe();
      return kube::Status(kube::StatusCode::kTimeout, msg);
    }
    std::this_thread::sleep_for(interval);
    interval = std::min(interval * 2, std::chrono::milliseconds(250));
  }
  return kube::Status::Ok();
}

}  // namespace dra::testing
