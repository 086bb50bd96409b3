#include "controller/inventory/SelectorErrorLog.h"

#include <prometheus/counter.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>

#include "src/metrics/MetricFamilyCache.h"

namespace dra::inventory {

SelectorErrorLog::SelectorErrorLog(std::shared_ptr<prometheus::Registry> metrics)
    : metrics_(std::move(metrics)) {
  if (!metrics_) return;
  auto family = kube::MetricFamilyCache::Counter(
      metrics_, "dra_controller_selector_errors_total",
      "Device selector evaluations that failed to compile or evaluate (the device then does "
      "not match), by DeviceClass",
      {"device_class"});
  if (family.ok()) metric_ = *family;
}

void SelectorErrorLog::Record(const std::string& class_name,
                              const ClassSelector::Failure& failure) {
  ++total_;
  if (metric_ != nullptr) metric_->Add({{"device_class", class_name}}).Increment();
  auto [it, inserted] = errors_.try_emplace({class_name, failure.expression});
  SelectorError& error = it->second;
  if (inserted) {
    error.class_name = class_name;
    error.expression = failure.expression;
    spdlog::warn(
        "DeviceClass {}: selector {} fails, so the class is unusable where the "
        "scheduler evaluates it on such a device: {}",
        class_name, failure.expression, failure.message);
  }
  error.message = failure.message;
  ++error.count;
}

std::vector<SelectorError> SelectorErrorLog::Errors() const {
  std::vector<SelectorError> out;
  out.reserve(errors_.size());
  for (const auto& [key, error] : errors_) out.push_back(error);
  return out;
}

}  // namespace dra::inventory
