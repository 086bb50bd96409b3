#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>

#include <memory>
#include <string_view>

namespace dra::alerts {

// The Alertmanager webhook's metrics (registered through MetricFamilyCache):
//   dra_controller_alertmanager_requests_total{code}   counter: webhook requests
//       by the HTTP status answered (200, 400, 401, 403, 429, 500, 503)
//   dra_controller_alerts_total{outcome}                counter: alerts received,
//       by what became of them: applied, unchanged, stale, unknown_device,
//       ambiguous_device, not_ours, invalid, untrusted, error
// Without a registry every call is a no-op. Thread-safe.
class AlertMetrics {
 public:
  explicit AlertMetrics(std::shared_ptr<prometheus::Registry> registry);

  void Request(int code);
  void Alert(std::string_view outcome);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* requests_ = nullptr;
  prometheus::Family<prometheus::Counter>* alerts_ = nullptr;
};

}  // namespace dra::alerts
