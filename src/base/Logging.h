#pragma once

#include <string>

#include "src/base/Status.h"

namespace kube {

// Configures the process-wide spdlog logger: one line per record on stderr,
// "2026-11-30T02:15:00.123Z info message key=value". Levels: trace, debug,
// info, warn, error.
Status InitLogging(const std::string& level);
// The same check without touching the logger.
Status ValidateLogLevel(const std::string& level);

}  // namespace kube
