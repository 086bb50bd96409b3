#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "src/base/Clock.h"
#include "src/base/Status.h"

namespace prometheus {
class Registry;
class Counter;
}  // namespace prometheus

namespace kube {

// Counts the objects and watch events a reflector skips because they cannot
// be decoded (also as reflector_decode_errors_total{resource} when given a
// registry) and logs them: the first at once, then at most one line per
// 10 s, saying how many went unlogged since.
class DecodeErrorReporter {
 public:
  DecodeErrorReporter(std::shared_ptr<Clock> clock, std::string resource,
                      const std::shared_ptr<prometheus::Registry>& metrics);

  // `key` is empty when not even the object's metadata can be read.
  void Report(const std::string& key, const Status& error);
  uint64_t count() const { return count_; }

 private:
  std::shared_ptr<Clock> clock_;
  std::string resource_;
  prometheus::Counter* counter_ = nullptr;
  std::atomic<uint64_t> count_{0};
  Clock::TimePoint last_log_{};
  uint64_t unlogged_ = 0;
};

}  // namespace kube
