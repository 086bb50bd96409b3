#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "src/base/Clock.h"

namespace prometheus {
class Registry;
class Counter;
}  // namespace prometheus

namespace kube {

// A reflector's full syncs: how many completed by a paged LIST and by a
// watch-list (also as reflector_syncs_total{resource,method} when given a
// registry), and the line each is logged with: the items it read and how
// long it took, the first sync at info level, later ones at debug.
class FullSyncStats {
 public:
  enum class Method : uint8_t { kList, kWatchList };

  FullSyncStats(std::shared_ptr<Clock> clock, std::string resource,
                const std::shared_ptr<prometheus::Registry>& metrics);

  // A full sync begins now; it is timed from here, whatever way it ends up.
  void Began(Clock::TimePoint now) { began_ = now; }
  // It starts reading the collection (again, after a fallback).
  void ReadingAfresh() { items_ = 0; }
  void ItemRead() { ++items_; }
  void Count(Method method);
  void Log(Method method) const;

  uint64_t lists() const { return lists_; }
  uint64_t watch_lists() const { return watch_lists_; }

 private:
  std::shared_ptr<Clock> clock_;
  std::string resource_;
  prometheus::Counter* list_counter_ = nullptr;
  prometheus::Counter* watch_list_counter_ = nullptr;
  std::atomic<uint64_t> lists_{0};
  std::atomic<uint64_t> watch_lists_{0};
  Clock::TimePoint began_{};
  uint64_t items_ = 0;
};

}  // namespace kube
