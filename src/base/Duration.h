#pragma once

#include <chrono>
#include <string_view>

#include "src/base/Result.h"

namespace kube {

// Parses Go-style durations as Kubernetes flags use them: "15s", "500ms",
// "1m30s", "2h", "1.5s"; units ns, us, ms, s, m, h. A bare "0" is zero.
Result<std::chrono::milliseconds> ParseDuration(std::string_view text);

}  // namespace kube
