#pragma once

#include <functional>
#include <map>
#include <string>

namespace dra::testing {

// A Prometheus text exposition as series -> value: the key is the sample
// line up to its value ("name{label=\"v\",...}"), the value its number.
// `# TYPE` lines are kept apart so callers can pick gauges only.
class MetricsText {
 public:
  static MetricsText Parse(const std::string& text);

  const std::map<std::string, double>& samples() const { return samples_; }
  // "gauge", "counter", "histogram", ... of a family; "" if not declared.
  std::string TypeOf(const std::string& family) const;
  // The family a series belongs to (its name; histogram/summary suffixes kept).
  static std::string NameOf(const std::string& series);
  // Sum of the samples of `family` whose labels contain every `label="value"`
  // fragment in `label_filter` (an empty filter takes them all).
  double Sum(const std::string& family, const std::string& label_filter = "") const;
  // The samples for which `keep(series)` holds.
  std::map<std::string, double> Select(const std::function<bool(const std::string&)>& keep) const;

 private:
  std::map<std::string, double> samples_;
  std::map<std::string, std::string> types_;
};

// "a: 1 != 2; b only in left (3); ..." for two selected sample maps; "" if equal.
std::string DescribeDifference(const std::map<std::string, double>& left,
                               const std::map<std::string, double>& right, size_t max_items = 20);

}  // namespace dra::testing
