#pragma once

#include <map>
#include <mutex>
#include <string>

#include "src/cache/EventHandler.h"

namespace dra::testing {

// Counts an informer's events per object key, thread-safely.
template <typename T>
class CountingHandler : public kube::EventHandler<T> {
 public:
  using Ptr = typename kube::EventHandler<T>::Ptr;

  void OnAdd(const Ptr& o) override { Count(adds_, o); }
  void OnUpdate(const Ptr&, const Ptr& o) override { Count(updates_, o); }
  void OnDelete(const Ptr& o) override { Count(deletes_, o); }

  std::map<std::string, int> adds() const { return Copy(adds_); }
  std::map<std::string, int> updates() const { return Copy(updates_); }
  std::map<std::string, int> deletes() const { return Copy(deletes_); }

 private:
  void Count(std::map<std::string, int>& counts, const Ptr& o) {
    std::lock_guard lock(mu_);
    ++counts[o->meta.Key()];
  }
  std::map<std::string, int> Copy(const std::map<std::string, int>& counts) const {
    std::lock_guard lock(mu_);
    return counts;
  }

  mutable std::mutex mu_;
  std::map<std::string, int> adds_, updates_, deletes_;
};

}  // namespace dra::testing
