#pragma once

#include <memory>
#include <mutex>
#include <string>

namespace dra::metrics {

// The last rendered text exposition, shared between the thread that renders
// it after inventory changes and the /metrics handlers that serve it: a
// scrape takes a reference, never a copy under the lock. Thread-safe.
class ExpositionCache {
 public:
  void Store(std::string text);
  // nullptr until the first Store().
  std::shared_ptr<const std::string> Load() const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const std::string> text_;
};

}  // namespace dra::metrics
