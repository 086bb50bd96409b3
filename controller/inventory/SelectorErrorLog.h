#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "controller/inventory/ClassSelector.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Counter;
}  // namespace prometheus

namespace dra::inventory {

// A selector that failed to compile or evaluate, for reports and metrics.
struct SelectorError {
  std::string class_name;
  std::string expression;
  std::string message;  // the latest
  uint64_t count = 0;
};

// Failed selector evaluations per DeviceClass and expression: logged once
// each, counted, and with a registry exported as
// dra_controller_selector_errors_total{device_class}. Not thread-safe; the
// Inventory serializes access.
class SelectorErrorLog {
 public:
  explicit SelectorErrorLog(std::shared_ptr<prometheus::Registry> metrics);

  void Record(const std::string& class_name, const ClassSelector::Failure& failure);
  std::vector<SelectorError> Errors() const;
  uint64_t total() const { return total_; }

 private:
  std::map<std::pair<std::string, std::string>, SelectorError> errors_;
  uint64_t total_ = 0;
  std::shared_ptr<prometheus::Registry> metrics_;  // keeps the family alive
  prometheus::Family<prometheus::Counter>* metric_ = nullptr;
};

}  // namespace dra::inventory
