#include "src/client/RestClientMetrics.h"

#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {

RestClientMetrics::RestClientMetrics(std::shared_ptr<prometheus::Registry> registry,
                                     std::string host)
    : registry_(std::move(registry)), host_(std::move(host)) {
  if (!registry_) return;
  auto requests = MetricFamilyCache::Counter(
      registry_, "rest_client_requests_total",
      "Number of HTTP requests, partitioned by status code, method, and host.",
      {"code", "method", "host"});
  auto duration = MetricFamilyCache::Histogram(
      registry_, "rest_client_request_duration_seconds",
      "Request latency in seconds. Broken down by verb, and host.", {"verb", "host"});
  if (!requests.ok() || !duration.ok()) {
    spdlog::error("not exporting rest_client_* metrics: {}",
                  (requests.ok() ? duration.status() : requests.status()).ToString());
    return;
  }
  requests_ = *requests;
  duration_ = *duration;
}

void RestClientMetrics::Observe(const std::string& method, const std::string& code,
                                std::chrono::duration<double> took) {
  static const prometheus::Histogram::BucketBoundaries kBuckets{0.005, 0.025, 0.1, 0.25, 0.5, 1,
                                                                2,     4,     8,   15,   30,  60};
  Count(method, code);
  if (duration_ == nullptr) return;
  duration_->Add({{"verb", method}, {"host", host_}}, kBuckets).Observe(took.count());
}

void RestClientMetrics::Count(const std::string& method, const std::string& code) {
  if (requests_ == nullptr) return;
  requests_->Add({{"code", code}, {"method", method}, {"host", host_}}).Increment();
}

}  // namespace kube
