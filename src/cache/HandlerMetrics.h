#pragma once

#include <memory>
#include <string>

namespace prometheus {
class Registry;
class Counter;
class Gauge;
}  // namespace prometheus

namespace kube {

// An informer's handler metrics, labelled with its resource:
// informer_handler_errors_total (callbacks that threw) and
// informer_handler_queue_depth (notifications queued, not yet delivered).
// Both are null without a registry; users check before use.
class HandlerMetrics {
 public:
  HandlerMetrics() = default;
  HandlerMetrics(const std::shared_ptr<prometheus::Registry>& registry,
                 const std::string& resource);

  void CountError() const;
  void Queued() const;
  void Delivered() const;

 private:
  prometheus::Counter* errors_ = nullptr;
  prometheus::Gauge* queue_depth_ = nullptr;
};

}  // namespace kube
