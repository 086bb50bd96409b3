#include "controller/metrics/AllocationMetricsWiring.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/extended/PodInformer.h"
#include "src/cache/ChangeSignal.h"
#include "src/manager/FunctionRunnable.h"

namespace dra::metrics {
namespace {

// What the metrics read of a Node (placement by labels, readiness, device
// plugins' allocatable); a kubelet's periodic status update changes none of it.
bool NodeMatters(const api::NodeView& a, const api::NodeView& b) {
  return a.meta.labels != b.meta.labels || a.ready != b.ready ||
         a.unschedulable != b.unschedulable || a.allocatable_extended != b.allocatable_extended;
}

template <typename T>
std::function<std::vector<std::shared_ptr<const T>>()> Lister(kube::Informer<T>& informer) {
  const kube::StoreReader<T>* store = &informer.store();
  return [store] { return store->List(); };
}

}  // namespace

std::unique_ptr<AllocationMetricsWiring> AllocationMetricsWiring::Register(
    kube::Manager& manager, const inventory::Inventory& inventory,
    inventory::InventoryInformers& inventory_informers, Options options) {
  std::unique_ptr<AllocationMetricsWiring> feature(
      new AllocationMetricsWiring(manager, inventory, std::move(options)));
  AllocationMetricsWiring* self = feature.get();
  // The inventory, Pods, Nodes (placement), and what the health provider reads.
  auto& informers = manager.informers();
  auto waits_for = inventory_informers.DeviceDependencies();
  waits_for.push_back(kube::InformerDependency::On(extended::PodInformer::Get(informers)));
  waits_for.push_back(kube::InformerDependency::On(
      informers.Get<api::NodeView>(api::NodeView::kResource, api::NodeView::Decoder())));
  for (const auto& d : self->options_.unhealthy_devices.waits_for) waits_for.push_back(d);
  manager.Add(std::make_unique<kube::FunctionRunnable>(
      "allocation-metrics", false,
      [self] {
        self->thread_.Start([self] { self->Loop(); });
        return kube::Status::Ok();
      },
      [self] { self->thread_.Stop(); }, std::move(waits_for)));
  return feature;
}

AllocationMetricsWiring::AllocationMetricsWiring(kube::Manager& manager,
                                                 const inventory::Inventory& inventory,
                                                 Options options)
    : options_(std::move(options)),
      trigger_([&inventory] { return inventory.change_count(); }),
      cache_(std::make_shared<ExpositionCache>()),
      thread_(manager.clock()) {
  // The inventory's own informers are covered by its change count.
  auto& informers = manager.informers();
  auto& pods = extended::PodInformer::Get(informers);
  auto& nodes = informers.Get<api::NodeView>(api::NodeView::kResource, api::NodeView::Decoder());
  pods.AddHandler(std::make_shared<kube::ChangeSignal<api::PodView>>(trigger_.flag()));
  nodes.AddHandler(
      std::make_shared<kube::ChangeSignal<api::NodeView>>(trigger_.flag(), NodeMatters));
  if (options_.unhealthy_devices.watch) options_.unhealthy_devices.watch(trigger_.flag());
  MetricsSources sources{.inventory = &inventory,
                         .unhealthy_devices = options_.unhealthy_devices.keys,
                         .pods = Lister(pods),
                         .nodes = Lister(nodes),
                         .device_attributes = options_.device_attributes};
  metrics_ = std::make_unique<AllocationMetrics>(std::move(sources));
  manager.AddExpositionSource("allocation-metrics", [cache = cache_] { return cache->Load(); });
}

AllocationMetricsWiring::~AllocationMetricsWiring() { thread_.Stop(); }

void AllocationMetricsWiring::Render() {
  auto start = std::chrono::steady_clock::now();
  std::string text = metrics_->Render();
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  spdlog::debug("allocation metrics rendered: {} bytes in {} ms", text.size(), took.count());
  cache_->Store(std::move(text));
}

// A refresh costs a pass over the inventory and a render (README "Metrics",
// "Scrape cost"), so under constant churn the next one waits
// `kCostFactor` times as long as the last took: at most ~1/kCostFactor of a core.
void AllocationMetricsWiring::Loop() {
  constexpr int kCostFactor = 10;
  auto& clock = thread_.clock();
  auto last = clock.Now() - options_.max_interval;
  kube::Clock::Duration pause = options_.min_interval;
  do {
    bool due = clock.Now() - last >= options_.max_interval;
    if (trigger_.TakeChange() || due) {
      last = clock.Now();
      Render();
      pause = std::max<kube::Clock::Duration>(options_.min_interval,
                                              (clock.Now() - last) * kCostFactor);
    }
  } while (thread_.SleepFor(pause));
}

}  // namespace dra::metrics
