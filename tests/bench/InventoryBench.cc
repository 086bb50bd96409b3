// Inventory costs at fleet scale (docs/design.md §5: 5,000 nodes x 8 GPUs = 40k
// devices, 50 DeviceClasses): a full recompute of every class's match set,
// one slice event, one class change, a per-node count, and the inventory's
// own heap per device on top of the slice projections it shares.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "controller/inventory/Inventory.h"
#include "tests/support/HeapCounter.h"

namespace {

using dra::inventory::Inventory;
namespace api = dra::api;

constexpr int kGpusPerNode = 8;
constexpr int kClasses = 50;

api::Device Gpu(int index, int node) {
  api::Device device;
  device.name = "gpu-" + std::to_string(index);
  const int64_t memory_gi = (node % 4 == 0) ? 80 : (node % 4 == 1 ? 40 : 24);
  device.attributes.emplace_back("type", api::AttributeValue(std::string("gpu")));
  device.attributes.emplace_back("model",
                                 api::AttributeValue("model-" + std::to_string(node % 10)));
  device.attributes.emplace_back("index", api::AttributeValue(int64_t{index}));
  device.attributes.emplace_back("driverVersion",
                                 api::AttributeValue(api::VersionString{"535.104.5"}));
  device.capacity.emplace_back("memory", kube::Quantity::FromInt64(memory_gi << 30));
  return device;
}

std::shared_ptr<const api::ResourceSlice> NodeSlice(int node, int generation = 1) {
  auto slice = std::make_shared<api::ResourceSlice>();
  std::string name = "node-" + std::to_string(node);
  slice->meta.name = name + "-gpu.example.com";
  slice->driver = "gpu.example.com";
  slice->pool = {name, generation, 1};
  slice->node_selection = api::ResourceSlice::NodeSelection::kNodeName;
  slice->node_name = name;
  for (int i = 0; i < kGpusPerNode; ++i) slice->devices.push_back(Gpu(i, node));
  return slice;
}

// Selectors as operators write them: driver, model, memory and version.
std::shared_ptr<const api::DeviceClass> ClassNumber(int k) {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = "class-" + std::to_string(k);
  cls->selectors.push_back(R"(device.driver == "gpu.example.com")");
  std::string model = "model-" + std::to_string(k % 10);
  std::string memory = std::to_string(16 + (k % 5) * 16) + "Gi";
  cls->selectors.push_back(
      R"(device.attributes["gpu.example.com"].model == ")" + model +
      R"(" && device.capacity["gpu.example.com"].memory.compareTo(quantity(")" + memory +
      R"(")) >= 0)");
  if (k % 3 == 0) {
    cls->selectors.push_back(
        R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0")))");
  }
  return cls;
}

std::unique_ptr<Inventory> Fleet(int nodes, int classes) {
  auto inventory = std::make_unique<Inventory>();
  for (int k = 0; k < classes; ++k) inventory->ApplyClass(ClassNumber(k));
  for (int n = 0; n < nodes; ++n) inventory->ApplySlice(NodeSlice(n));
  return inventory;
}

void BM_FullRecompute(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  auto inventory = Fleet(nodes, kClasses);
  for (auto _ : state) inventory->RecomputeAllMatches();
  state.counters["devices"] = nodes * kGpusPerNode;
  state.counters["evals/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * nodes * kGpusPerNode * kClasses,
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FullRecompute)->Arg(5000)->Unit(benchmark::kMillisecond)->UseRealTime();

// A driver republishing one node's slice: each event is a new object, so
// its 8 devices are evaluated against all 50 classes again.
void BM_SliceEvent(benchmark::State& state) {
  auto inventory = Fleet(5000, kClasses);
  std::vector<std::shared_ptr<const api::ResourceSlice>> updates;
  for (int n = 0; n < 64; ++n) {
    updates.push_back(NodeSlice(n * 70, 2));
    updates.push_back(NodeSlice(n * 70, 2));
  }
  size_t i = 0;
  for (auto _ : state) {
    // Alternating two objects per node: never the object already held.
    size_t node = (i / 2) % 64, copy = i % 2;
    inventory->ApplySlice(updates[node * 2 + copy]);
    ++i;
  }
  state.counters["devices/event"] = kGpusPerNode;
}
BENCHMARK(BM_SliceEvent)->Unit(benchmark::kMicrosecond);

// An operator editing one DeviceClass's selectors: one class over 40k devices.
void BM_ClassChange(benchmark::State& state) {
  auto inventory = Fleet(5000, kClasses);
  auto a = ClassNumber(7);
  auto b = std::make_shared<api::DeviceClass>(*ClassNumber(8));
  b->meta.name = a->meta.name;
  bool flip = false;
  for (auto _ : state) {
    inventory->ApplyClass(flip ? a : std::shared_ptr<const api::DeviceClass>(b));
    flip = !flip;
  }
}
BENCHMARK(BM_ClassChange)->Unit(benchmark::kMillisecond)->UseRealTime();

// What explaining one Pending Pod asks per candidate node.
void BM_CountOnNode(benchmark::State& state) {
  auto inventory = Fleet(5000, kClasses);
  int node = 0;
  for (auto _ : state) {
    auto counts = inventory->Count("class-0", "node-" + std::to_string(node++ % 5000));
    benchmark::DoNotOptimize(counts);
  }
}
BENCHMARK(BM_CountOnNode)->Unit(benchmark::kMicrosecond);

// Every node's figures for one class in one pass.
void BM_CountPerNode(benchmark::State& state) {
  auto inventory = Fleet(5000, kClasses);
  for (auto _ : state) {
    auto counts = inventory->CountPerNode("class-0");
    benchmark::DoNotOptimize(counts);
  }
}
BENCHMARK(BM_CountPerNode)->Unit(benchmark::kMillisecond);

// Heap the inventory adds per device beyond the slice projections it holds.
void BM_InventoryHeapPerDevice(benchmark::State& state) {
  const int nodes = 5000;
  for (auto _ : state) {
    std::vector<std::shared_ptr<const api::ResourceSlice>> slices;
    for (int n = 0; n < nodes; ++n) slices.push_back(NodeSlice(n));
    std::vector<std::shared_ptr<const api::DeviceClass>> classes;
    for (int k = 0; k < kClasses; ++k) classes.push_back(ClassNumber(k));
    int64_t before = dra::testing::LiveHeapBytes();
    auto inventory = std::make_unique<Inventory>();
    for (const auto& cls : classes) inventory->ApplyClass(cls);
    for (const auto& slice : slices) inventory->ApplySlice(slice);
    int64_t after = dra::testing::LiveHeapBytes();
    state.counters["inventory_bytes/device"] =
        static_cast<double>(after - before) / (nodes * kGpusPerNode);
  }
}
BENCHMARK(BM_InventoryHeapPerDevice)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
