#pragma once

#include <atomic>
#include <cstddef>

namespace kube {

// The handler work an EndpointServer has queued or running, at most `max`
// pieces: beyond that a request is answered 503 at once instead of queued
// behind slow handlers. Thread-safe.
class EndpointBacklog {
 public:
  explicit EndpointBacklog(std::size_t max) : max_(max) {}

  // False: full, the work is not to be queued.
  bool TryEnter() {
    std::size_t now = size_.load();
    while (now < max_) {
      if (size_.compare_exchange_weak(now, now + 1)) return true;
    }
    return false;
  }
  void Leave() { size_.fetch_sub(1); }
  std::size_t size() const { return size_.load(); }

 private:
  const std::size_t max_;
  std::atomic<std::size_t> size_{0};
};

}  // namespace kube
