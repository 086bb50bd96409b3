#pragma once

#include <spdlog/spdlog.h>

namespace dra::testing {

// Raises the default logger's level for its lifetime: tests that run
// thousands of reconciles would otherwise spend most of their time logging.
class QuietLog {
 public:
  explicit QuietLog(spdlog::level::level_enum level = spdlog::level::warn)
      : before_(spdlog::get_level()) {
    spdlog::set_level(level);
  }
  ~QuietLog() { spdlog::set_level(before_); }
  QuietLog(const QuietLog&) = delete;
  QuietLog& operator=(const QuietLog&) = delete;

 private:
  spdlog::level::level_enum before_;
};

}  // namespace dra::testing
