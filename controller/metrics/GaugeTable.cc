#include "controller/metrics/GaugeTable.h"

#include <algorithm>

#include "controller/metrics/TextExposition.h"

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

void GaugeTable::Render(std::string& out) const {
  std::vector<std::pair<const std::vector<std::string>*, double>> sorted;
  sorted.reserve(size());
  for (const auto& [labels, value] : values_) sorted.emplace_back(&labels, value);
  for (const auto& [labels, value] : rows_) sorted.emplace_back(&labels, value);
  auto by_labels = [](const auto& a, const auto& b) { return *a.first < *b.first; };
  if (!rows_.empty() && !std::is_sorted(sorted.begin(), sorted.end(), by_labels)) {
    std::sort(sorted.begin(), sorted.end(), by_labels);
  }
  TextExposition text(out);
  text.Family(name_, help_, label_names_);
  for (const auto& [labels, value] : sorted) text.Sample(*labels, value);
}

void GaugeTable::RenderAll(std::string& out, std::initializer_list<const GaugeTable*> tables) {
  for (const GaugeTable* table : tables) table->Render(out);
}

}  // namespace dra::metrics
