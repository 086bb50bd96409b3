#include "src/cache/FullSyncStats.h"

#include <prometheus/counter.h>
#include <spdlog/spdlog.h>

#include "src/metrics/MetricFamilyCache.h"

namespace kube {
namespace {

prometheus::Counter* SyncCounter(const std::shared_ptr<prometheus::Registry>& metrics,
                                 const std::string& resource, const std::string& method) {
  if (!metrics) return nullptr;
  auto family = MetricFamilyCache::Counter(
      metrics, "reflector_syncs_total",
      "Full syncs of reflector caches, by how the collection was read: a paged LIST or a "
      "streamed watch-list.",
      {"resource", "method"});
  if (!family.ok()) return nullptr;
  return &(*family)->Add({{"resource", resource}, {"method", method}});
}

}  // namespace

FullSyncStats::FullSyncStats(std::shared_ptr<Clock> clock, std::string resource,
                             const std::shared_ptr<prometheus::Registry>& metrics)
    : clock_(std::move(clock)),
      resource_(std::move(resource)),
      list_counter_(SyncCounter(metrics, resource_, "list")),
      watch_list_counter_(SyncCounter(metrics, resource_, "watch-list")) {}

void FullSyncStats::Count(Method method) {
  bool list = method == Method::kList;
  ++(list ? lists_ : watch_lists_);
  prometheus::Counter* counter = list ? list_counter_ : watch_list_counter_;
  if (counter != nullptr) counter->Increment();
}

void FullSyncStats::Log(Method method) const {
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(clock_->Now() - began_);
  bool first = lists_ + watch_lists_ == 1;
  spdlog::log(first ? spdlog::level::info : spdlog::level::debug,
              "{}: synced {} items by {} in {} ms", resource_, items_,
              method == Method::kList ? "LIST" : "watch-list", took.count());
}

}  // namespace kube
