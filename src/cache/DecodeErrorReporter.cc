#include "src/cache/DecodeErrorReporter.h"

#include <prometheus/counter.h>
#include <spdlog/spdlog.h>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

constexpr auto kLogInterval = std::chrono::seconds(10);

prometheus::Counter* DecodeErrorCounter(const std::shared_ptr<prometheus::Registry>& metrics,
                                        const std::string& resource) {
  if (!metrics) return nullptr;
  auto family = MetricFamilyCache::Counter(
      metrics, "reflector_decode_errors_total",
      "Objects and watch events skipped by reflectors because they could not be decoded.",
      {"resource"});
  if (!family.ok()) {
    spdlog::warn("{}: no decode error metric: {}", resource, family.status().ToString());
    return nullptr;
  }
  return &(*family)->Add({{"resource", resource}});
}

}  // namespace

DecodeErrorReporter::DecodeErrorReporter(std::shared_ptr<Clock> clock, std::string resource,
                                         const std::shared_ptr<prometheus::Registry>& metrics)
    : clock_(std::move(clock)),
      resource_(std::move(resource)),
      counter_(DecodeErrorCounter(metrics, resource_)) {}

void DecodeErrorReporter::Report(const std::string& key, const Status& error) {
  ++count_;
  if (counter_ != nullptr) counter_->Increment();
  auto now = clock_->Now();
  if (count_ > 1 && now - last_log_ < kLogInterval) {
    ++unlogged_;
    return;
  }
  spdlog::warn("{}: skipping {} that cannot be decoded: {} ({} more skipped since the last report)",
               resource_, key.empty() ? "an object" : key, error.ToString(), unlogged_);
  last_log_ = now;
  unlogged_ = 0;
}

}  // namespace kube
