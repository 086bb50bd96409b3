#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Counter;
class Histogram;
}  // namespace prometheus

namespace kube {

// client-go's REST metrics, under their upstream names:
// rest_client_requests_total{code,method,host} and
// rest_client_request_duration_seconds{verb,host}.
class RestClientMetrics {
 public:
  // Registered through MetricFamilyCache; without a usable registry nothing
  // is exported and the calls below do nothing.
  RestClientMetrics(std::shared_ptr<prometheus::Registry> registry, std::string host);
  // `code` is the HTTP status, or "<error>" when no response arrived.
  void Observe(const std::string& method, const std::string& code,
               std::chrono::duration<double> took);
  // Counts a request without its latency: a watch, whose duration is the
  // watch's and says nothing about the server (client-go does the same).
  void Count(const std::string& method, const std::string& code);

 private:
  std::shared_ptr<prometheus::Registry> registry_;  // keeps the families alive
  prometheus::Family<prometheus::Counter>* requests_ = nullptr;
  prometheus::Family<prometheus::Histogram>* duration_ = nullptr;
  std::string host_;
};

}  // namespace kube
