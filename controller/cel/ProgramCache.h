#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "controller/cel/Program.h"
#include "src/base/Result.h"

namespace dra::cel {

// Compiles each distinct expression once and remembers the Program or the
// compile error. Thread-safe. When `max_entries` is reached the cache is
// cleared (selectors come from a bounded set of DeviceClasses and claims).
class ProgramCache {
 public:
  explicit ProgramCache(size_t max_entries = 4096) : max_entries_(max_entries) {}

  kube::Result<std::shared_ptr<const Program>> Get(std::string_view expression);
  size_t size() const;

 private:
  using Entry = kube::Result<std::shared_ptr<const Program>>;

  size_t max_entries_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace dra::cel
