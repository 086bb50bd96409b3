#pragma once

#include <map>
#include <string>
#include <utility>

namespace dra::bench {

// Figures read from a Prometheus text scrape.
class MetricsText {
 public:
  // The bucket holding the p99 of each `name` label of a histogram: (lower,
  // upper] bounds. That is all a scrape can tell.
  static std::map<std::string, std::pair<double, double>> HistogramP99(const std::string& text,
                                                                       const std::string& family);
  // The sum of the values of every line that starts with `prefix`.
  static double Gauge(const std::string& text, const std::string& prefix);
};

}  // namespace dra::bench
