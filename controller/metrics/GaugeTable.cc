#include "controller/metrics/GaugeTable.h"

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

prometheus::MetricFamily GaugeTable::Build() const {
  prometheus::MetricFamily family;
  family.name = name_;
  family.help = help_;
  family.type = prometheus::MetricType::Gauge;
  family.metric.reserve(values_.size());
  for (const auto& [labels, value] : values_) {
    prometheus::ClientMetric metric;
    for (size_t i = 0; i < label_names_.size() && i < labels.size(); ++i) {
      metric.label.push_back({label_names_[i], labels[i]});
    }
    metric.gauge.value = value;
    family.metric.push_back(std::move(metric));
  }
  return family;
}

}  // namespace dra::metrics
