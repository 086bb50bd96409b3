// Extended resources at scale: heap per cached PodView at 150,000 GPU Pods
// (target <= 2 KiB per Pod, docs/design.md §5), and the time to explain one
// Pending GPU Pod against 5,000 nodes x 8 devices. Every allocation of this
// binary is counted (tests/support/HeapCounter).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "controller/api/PodView.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/PodExplainer.h"
#include "src/cache/Store.h"
#include "src/cache/StoreSink.h"
#include "src/cache/WatchDecoder.h"
#include "tests/support/FakeObjects.h"
#include "tests/support/HeapCounter.h"

namespace {

using dra::testing::LiveHeapBytes;

void BM_HeapPerPodView150k(benchmark::State& state) {
  constexpr int kPods = 150000;
  double per_pod = 0;
  for (auto _ : state) {
    kube::WatchDecoder decoder;
    auto store = std::make_unique<kube::Store<dra::api::PodView>>();
    auto sink =
        std::make_unique<kube::StoreSink<dra::api::PodView>>(*store, dra::api::PodView::FromJson);
    int64_t before = LiveHeapBytes();
    sink->BeginReplace();
    for (int i = 0; i < kPods; ++i) {
      std::string json = dra::testing::FakePodJson(i, "team-" + std::to_string(i % 50));
      auto doc = decoder.ParseDocument(json);
      if (doc.ok()) (void)sink->ReplaceItem(*doc);
    }
    sink->EndReplace("1");
    int64_t after = LiveHeapBytes();
    per_pod = store->Size() == kPods ? static_cast<double>(after - before) / kPods : -1;
  }
  state.counters["pods"] = kPods;
  state.counters["bytes_per_pod"] = per_pod;
}
BENCHMARK(BM_HeapPerPodView150k)->Iterations(1)->Unit(benchmark::kMillisecond);

// 5,000 nodes with 8 GPUs each, every GPU allocated but on the last node: the
// explainer judges every node for a Pod asking for 2. Arg 0: nothing
// allocated, so every node passes the counts and gets a whole-claim check
// (Inventory::CheckClaim), the worst case.
void BM_ExplainPodAt5000Nodes(benchmark::State& state) {
  constexpr int kNodes = 5000, kGpus = 8;
  dra::inventory::Inventory inventory;
  auto cls = std::make_shared<dra::api::DeviceClass>();
  cls->meta.name = "gpu.example.com";
  cls->extended_resource_name = "example.com/gpu";
  cls->selectors = {"device.driver == 'gpu.example.com'"};
  inventory.ApplyClass(cls);
  kube::WatchDecoder decoder;
  std::vector<std::shared_ptr<const dra::api::NodeView>> nodes;
  for (int n = 0; n < kNodes; ++n) {
    std::string json = dra::testing::FakeSliceJson(n, kGpus);
    auto doc = decoder.ParseDocument(json);
    if (!doc.ok()) continue;
    auto slice = dra::api::ResourceSlice::FromJson(*doc);
    if (slice.ok()) inventory.ApplySlice(std::make_shared<dra::api::ResourceSlice>(*slice));
    auto node = std::make_shared<dra::api::NodeView>();
    node->meta.name = "node-" + std::to_string(n);
    nodes.push_back(node);
    if (n == kNodes - 1 || state.range(0) == 0) continue;
    auto claim = std::make_shared<dra::api::ResourceClaim>();
    claim->meta.namespace_name = "team";
    claim->meta.name = "claim-" + std::to_string(n);
    claim->allocated = true;
    for (int g = 0; g < kGpus; ++g) {
      dra::api::ResourceClaim::AllocationResult result;
      result.request = "r";
      result.driver = "gpu.example.com";
      result.pool = node->meta.name;
      result.device = "gpu-" + std::to_string(g);
      claim->results.push_back(std::move(result));
    }
    inventory.ApplyClaim(claim);
  }
  auto mapping = dra::extended::ExtendedResourceMapping::Build({cls});
  std::string pod_json = dra::testing::FakePodJson(7, "team");
  auto doc = decoder.ParseDocument(pod_json);
  auto pod = dra::api::PodView::FromJson(*doc);
  pod->node_name = {};  // Pending
  dra::extended::PodExplainer::Inputs in{mapping, nodes, inventory, {}, {}};
  int fitting = 0;
  for (auto _ : state) {
    auto explanation = dra::extended::PodExplainer::Explain(*pod, in);
    fitting = explanation.fitting_nodes;
    benchmark::DoNotOptimize(explanation);
  }
  state.counters["nodes"] = kNodes;
  state.counters["fitting_nodes"] = fitting;
}
BENCHMARK(BM_ExplainPodAt5000Nodes)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
