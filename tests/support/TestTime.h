#pragma once

#include <chrono>
#include <cstdlib>

namespace dra::testing {

// Wall-clock limits of tests that measure real time, stretched by the factor
// in DRA_TEST_TIME_SCALE (default 1; hack/sanitize.sh sets it, since TSan and
// ASan slow every request several times). Only for a test's *limits*, never
// for the timings it compares against each other: a limit must still fail
// when the thing it bounds hangs, it just must not fail on a slow machine.
class TestTime {
 public:
  // The scale: DRA_TEST_TIME_SCALE when it parses as a number >= 1, else 1.
  static double Scale() {
    const char* text = std::getenv("DRA_TEST_TIME_SCALE");
    if (text == nullptr) return 1.0;
    char* end = nullptr;
    double scale = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(scale >= 1.0) || scale > 100.0) return 1.0;
    return scale;
  }

  template <typename Rep, typename Period>
  static std::chrono::milliseconds Scaled(std::chrono::duration<Rep, Period> limit) {
    auto ms = std::chrono::duration<double, std::milli>(limit) * Scale();
    return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(ms.count()));
  }
};

}  // namespace dra::testing
