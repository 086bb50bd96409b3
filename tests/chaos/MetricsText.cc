#include "tests/chaos/MetricsText.h"

#include <sstream>

namespace dra::testing {

MetricsText MetricsText::Parse(const std::string& text) {
  MetricsText out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream words(line.substr(7));
      std::string family, type;
      words >> family >> type;
      out.types_[family] = type;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    // The value follows the last space outside the label braces.
    size_t close = line.rfind('}');
    size_t space = line.find(' ', close == std::string::npos ? 0 : close);
    if (space == std::string::npos) continue;
    std::string value = line.substr(space + 1);
    if (size_t ts = value.find(' '); ts != std::string::npos) value.resize(ts);
    try {
      out.samples_[line.substr(0, space)] = std::stod(value);
    } catch (const std::exception&) {
      continue;  // NaN/Inf spellings stod refuses: not compared
    }
  }
  return out;
}

std::string MetricsText::TypeOf(const std::string& family) const {
  auto it = types_.find(family);
  return it == types_.end() ? "" : it->second;
}

std::string MetricsText::NameOf(const std::string& series) {
  return series.substr(0, series.find('{'));
}

double MetricsText::Sum(const std::string& family, const std::string& label_filter) const {
  double sum = 0;
  for (const auto& [series, value] : samples_) {
    if (NameOf(series) != family) continue;
    bool keep = true;
    std::istringstream fragments(label_filter);
    std::string fragment;
    while (std::getline(fragments, fragment, ',')) {
      if (!fragment.empty() && series.find(fragment) == std::string::npos) keep = false;
    }
    if (keep) sum += value;
  }
  return sum;
}

std::map<std::string, double> MetricsText::Select(
    const std::function<bool(const std::string&)>& keep) const {
  std::map<std::string, double> out;
  for (const auto& [series, value] : samples_) {
    if (keep(series)) out.emplace(series, value);
  }
  return out;
}

std::string DescribeDifference(const std::map<std::string, double>& left,
                               const std::map<std::string, double>& right, size_t max_items) {
  std::ostringstream out;
  size_t items = 0;
  auto note = [&](const std::string& text) {
    if (items++ < max_items) out << text << "; ";
  };
  for (const auto& [series, value] : left) {
    auto it = right.find(series);
    if (it == right.end()) {
      note(series + " only in left (" + std::to_string(value) + ")");
    } else if (it->second != value) {
      note(series + ": " + std::to_string(value) + " != " + std::to_string(it->second));
    }
  }
  for (const auto& [series, value] : right) {
    if (!left.contains(series)) note(series + " only in right (" + std::to_string(value) + ")");
  }
  if (items > max_items) out << "... " << items - max_items << " more";
  return out.str();
}

}  // namespace dra::testing
