#include "controller/alerts/AlertMetrics.h"

#include <string>

#include "src/metrics/MetricFamilyCache.h"

namespace dra::alerts {

AlertMetrics::AlertMetrics(std::shared_ptr<prometheus::Registry> registry)
    : registry_(std::move(registry)) {
  if (!registry_) return;
  auto requests = kube::MetricFamilyCache::Counter(
      registry_, "dra_controller_alertmanager_requests_total",
      "Alertmanager webhook requests, by the HTTP status answered", {"code"});
  if (requests.ok()) requests_ = *requests;
  auto alerts = kube::MetricFamilyCache::Counter(
      registry_, "dra_controller_alerts_total",
      "Alerts received by the Alertmanager webhook, by what became of them", {"outcome"});
  if (alerts.ok()) alerts_ = *alerts;
}

void AlertMetrics::Request(int code) {
  if (requests_ != nullptr) requests_->Add({{"code", std::to_string(code)}}).Increment();
}

void AlertMetrics::Alert(std::string_view outcome) {
  if (alerts_ != nullptr) alerts_->Add({{"outcome", std::string(outcome)}}).Increment();
}

}  // namespace dra::alerts
