#include "src/client/RestClientMetrics.h"

#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace kube {

RestClientMetrics::RestClientMetrics(prometheus::Registry& registry, std::string host)
    : requests_(prometheus::BuildCounter()
                    .Name("rest_client_requests_total")
                    .Help("Number of HTTP requests, partitioned by status code, method, and host.")
                    .Register(registry)),
      duration_(prometheus::BuildHistogram()
                    .Name("rest_client_request_duration_seconds")
                    .Help("Request latency in seconds. Broken down by verb, and host.")
                    .Register(registry)),
      host_(std::move(host)) {}

void RestClientMetrics::Observe(const std::string& method, const std::string& code,
                                std::chrono::duration<double> took) {
  static const prometheus::Histogram::BucketBoundaries kBuckets{0.005, 0.025, 0.1, 0.25, 0.5, 1,
                                                                2,     4,     8,   15,   30,  60};
  Count(method, code);
  duration_.Add({{"verb", method}, {"host", host_}}, kBuckets).Observe(took.count());
}

void RestClientMetrics::Count(const std::string& method, const std::string& code) {
  requests_.Add({{"code", code}, {"method", method}, {"host", host_}}).Increment();
}

}  // namespace kube
