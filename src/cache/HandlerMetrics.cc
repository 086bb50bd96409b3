#include "src/cache/HandlerMetrics.h"

#include <spdlog/spdlog.h>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {

HandlerMetrics::HandlerMetrics(const std::shared_ptr<prometheus::Registry>& registry,
                               const std::string& resource) {
  if (!registry) return;
  auto errors = MetricFamilyCache::Counter(
      registry, "informer_handler_errors_total",
      "Informer event handler callbacks that threw; the event is passed over.", {"resource"});
  auto depth = MetricFamilyCache::Gauge(
      registry, "informer_handler_queue_depth",
      "Informer notifications queued for event handlers and not yet delivered.", {"resource"});
  if (!errors.ok() || !depth.ok()) {
    spdlog::warn("{}: no handler metrics: {}", resource,
                 (errors.ok() ? depth.status() : errors.status()).ToString());
    return;
  }
  errors_ = &(*errors)->Add({{"resource", resource}});
  queue_depth_ = &(*depth)->Add({{"resource", resource}});
}

void HandlerMetrics::CountError() const {
  if (errors_) errors_->Increment();
}

void HandlerMetrics::Queued() const {
  if (queue_depth_) queue_depth_->Increment();
}

void HandlerMetrics::Delivered() const {
  if (queue_depth_) queue_depth_->Decrement();
}

}  // namespace kube
