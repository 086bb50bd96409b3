#pragma once

#include <chrono>
#include <vector>

namespace dra::bench {

// Summaries of the bench's samples.
class SampleStats {
 public:
  using Clock = std::chrono::steady_clock;

  // The sample at rank p * size (p in [0, 1]; 1 is the maximum); 0 when empty.
  static double Percentile(std::vector<double> v, double p);
  static double Seconds(Clock::time_point from, Clock::time_point to);
};

}  // namespace dra::bench
