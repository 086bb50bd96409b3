#include "tests/bench/fleet/MetricsText.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <vector>

namespace dra::bench {

std::map<std::string, std::pair<double, double>> MetricsText::HistogramP99(
    const std::string& text, const std::string& family) {
  std::map<std::string, std::vector<std::pair<double, double>>> buckets;
  std::regex line_re(family + R"re(_bucket\{(?:.*,)?name="([^"]*)"(?:.*,)?le="([^"]*)"\} (\S+))re");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(family + "_bucket{", 0) != 0) continue;
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    double le = m[2] == "+Inf" ? 1e300 : std::stod(m[2]);
    buckets[m[1]].emplace_back(le, std::stod(m[3]));
  }
  std::map<std::string, std::pair<double, double>> out;
  for (auto& [name, b] : buckets) {
    std::sort(b.begin(), b.end());
    double total = b.back().second, lower = 0;
    if (total == 0) continue;
    for (auto [le, count] : b) {
      if (count >= 0.99 * total) {
        out[name] = {lower, le};
        break;
      }
      lower = le;
    }
  }
  return out;
}

double MetricsText::Gauge(const std::string& text, const std::string& prefix) {
  double sum = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) sum += std::stod(line.substr(line.rfind(' ') + 1));
  }
  return sum;
}

}  // namespace dra::bench
