#pragma once

#include <string_view>

#include "src/base/Result.h"

namespace kube {

// How a Reflector fills its cache before watching.
enum class WatchListMode {
  // Watch-list where the server serves it, else paged LIST (remembered for a
  // while, then tried again).
  kAuto,
  kOn,   // watch-list only: an API server that refuses it is retried, never listed
  kOff,  // paged LIST, then WATCH from the list's resourceVersion
};

// "auto", "on" or "off" (the --watch-list flag).
Result<WatchListMode> ParseWatchListMode(std::string_view text);
std::string_view WatchListModeName(WatchListMode mode);

}  // namespace kube
