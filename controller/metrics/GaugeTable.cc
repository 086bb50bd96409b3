#include "controller/metrics/GaugeTable.h"

#include <algorithm>

namespace dra::metrics {

GaugeTable::GaugeTable(std::string name, std::string help, std::vector<std::string> label_names)
    : name_(std::move(name)), help_(std::move(help)), label_names_(std::move(label_names)) {}

void GaugeTable::Add(const std::vector<std::string>& label_values, double delta) {
  values_[label_values] += delta;
}

void GaugeTable::Set(const std::vector<std::string>& label_values, double value) {
  values_[label_values] = value;
}

void GaugeTable::Ensure(const std::vector<std::string>& label_values) {
  values_.try_emplace(label_values, 0.0);
}

void GaugeTable::Append(std::vector<std::string> label_values, double value) {
  rows_.emplace_back(std::move(label_values), value);
}

prometheus::MetricFamily GaugeTable::Build() const {
  prometheus::MetricFamily family;
  family.name = name_;
  family.help = help_;
  family.type = prometheus::MetricType::Gauge;
  std::vector<std::pair<const std::vector<std::string>*, double>> sorted;
  sorted.reserve(size());
  for (const auto& [labels, value] : values_) sorted.emplace_back(&labels, value);
  for (const auto& [labels, value] : rows_) sorted.emplace_back(&labels, value);
  auto by_labels = [](const auto& a, const auto& b) { return *a.first < *b.first; };
  if (!rows_.empty() && !std::is_sorted(sorted.begin(), sorted.end(), by_labels)) {
    std::sort(sorted.begin(), sorted.end(), by_labels);
  }
  family.metric.resize(sorted.size());
  for (size_t m = 0; m < sorted.size(); ++m) {
    prometheus::ClientMetric& metric = family.metric[m];
    const std::vector<std::string>& labels = *sorted[m].first;
    metric.label.resize(std::min(label_names_.size(), labels.size()));
    for (size_t i = 0; i < metric.label.size(); ++i) {
      metric.label[i].name = label_names_[i];
      metric.label[i].value = labels[i];
    }
    metric.gauge.value = sorted[m].second;
  }
  return family;
}

std::vector<prometheus::MetricFamily> GaugeTable::BuildAll(
    std::initializer_list<const GaugeTable*> tables) {
  std::vector<prometheus::MetricFamily> out;
  out.reserve(tables.size());
  for (const GaugeTable* table : tables) out.push_back(table->Build());
  return out;
}

}  // namespace dra::metrics
