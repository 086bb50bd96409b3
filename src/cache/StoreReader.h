#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kube {

// Read-only access to an informer's cache of typed projections, keyed by
// "namespace/name" ("name" for cluster-scoped objects). Objects are immutable
// snapshots; only the informer's reflector changes the cache.
template <typename T>
class StoreReader {
 public:
  using Ptr = std::shared_ptr<const T>;

  virtual ~StoreReader() = default;

  // The object under `key`, or null.
  virtual Ptr Get(const std::string& key) const = 0;
  virtual std::vector<Ptr> List() const = 0;
  virtual std::vector<std::string> Keys() const = 0;
  virtual size_t Size() const = 0;
};

}  // namespace kube
