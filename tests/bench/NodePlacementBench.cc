// Node placement at fleet scale (docs/design.md §5: 5,000 nodes x 8 GPUs):
// besides each node's own slice, 100 racks publish 8 GPUs each behind a
// slice nodeSelector (rack In [rack-R], 50 nodes per rack). Measures a node
// label change, a selector slice event, per-node counts, and the
// inventory's heap per device including the node labels it keeps.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

#include "controller/inventory/Inventory.h"
#include "tests/support/HeapCounter.h"

namespace {

using dra::inventory::Inventory;
namespace api = dra::api;

constexpr int kNodes = 5000;
constexpr int kRacks = 100;
constexpr int kGpus = 8;
constexpr int kClasses = 10;

std::string RackOf(int node) { return "rack-" + std::to_string(node % kRacks); }

api::Device Gpu(int index, const std::string& model) {
  api::Device device;
  device.name = "gpu-" + std::to_string(index);
  device.attributes.emplace_back("model", api::AttributeValue(model));
  device.attributes.emplace_back("index", api::AttributeValue(int64_t{index}));
  device.capacity.emplace_back("memory", kube::Quantity::FromInt64(int64_t{80} << 30));
  return device;
}

std::shared_ptr<const api::ResourceSlice> NodeSlice(int node) {
  auto slice = std::make_shared<api::ResourceSlice>();
  slice->meta.name = "node-" + std::to_string(node) + "-gpus";
  slice->driver = "gpu.example.com";
  slice->pool = {"node-" + std::to_string(node), 1, 1};
  slice->node_selection = api::ResourceSlice::NodeSelection::kNodeName;
  slice->node_name = "node-" + std::to_string(node);
  for (int i = 0; i < kGpus; ++i) slice->devices.push_back(Gpu(i, "model-" + std::to_string(i)));
  return slice;
}

std::shared_ptr<const api::NodeSelector> RackSelector(int rack) {
  std::string json = R"({"nodeSelectorTerms": [{"matchExpressions": [{"key": "rack",
    "operator": "In", "values": ["rack-)" +
                     std::to_string(rack) + R"("]}]}]})";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc) != simdjson::SUCCESS) std::abort();
  return std::make_shared<api::NodeSelector>(api::NodeSelector::FromJson(doc));
}

std::shared_ptr<const api::ResourceSlice> RackSlice(int rack, int generation = 1) {
  auto slice = std::make_shared<api::ResourceSlice>();
  slice->meta.name = "rack-" + std::to_string(rack) + "-gpus";
  slice->driver = "gpu.example.com";
  slice->pool = {"rack-" + std::to_string(rack), generation, 1};
  slice->node_selection = api::ResourceSlice::NodeSelection::kNodeSelector;
  slice->node_selector = RackSelector(rack);
  for (int i = 0; i < kGpus; ++i) slice->devices.push_back(Gpu(i, "model-" + std::to_string(i)));
  return slice;
}

std::shared_ptr<const api::NodeView> Node(int node, const std::string& rack) {
  auto view = std::make_shared<api::NodeView>();
  view->meta.name = "node-" + std::to_string(node);
  view->meta.labels = {{"kubernetes.io/hostname", view->meta.name},
                       {"kubernetes.io/os", "linux"},
                       {"node.kubernetes.io/instance-type", "gpu-8x"},
                       {"topology.kubernetes.io/zone", "zone-" + std::to_string(node % 3)},
                       {"rack", rack}};
  return view;
}

std::shared_ptr<const api::DeviceClass> ClassNumber(int k) {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = "class-" + std::to_string(k);
  cls->selectors.push_back(R"(device.attributes["gpu.example.com"].model == "model-)" +
                           std::to_string(k % kGpus) + "\"");
  return cls;
}

struct Objects {
  std::vector<std::shared_ptr<const api::NodeView>> nodes;
  std::vector<std::shared_ptr<const api::ResourceSlice>> slices;
  std::vector<std::shared_ptr<const api::DeviceClass>> classes;
};

Objects MakeObjects() {
  Objects objects;
  for (int n = 0; n < kNodes; ++n) {
    objects.nodes.push_back(Node(n, RackOf(n)));
    objects.slices.push_back(NodeSlice(n));
  }
  for (int r = 0; r < kRacks; ++r) objects.slices.push_back(RackSlice(r));
  for (int k = 0; k < kClasses; ++k) objects.classes.push_back(ClassNumber(k));
  return objects;
}

std::unique_ptr<Inventory> Fleet(const Objects& objects) {
  auto inventory = std::make_unique<Inventory>();
  for (const auto& cls : objects.classes) inventory->ApplyClass(cls);
  for (const auto& node : objects.nodes) inventory->ApplyNode(node);
  for (const auto& slice : objects.slices) inventory->ApplySlice(slice);
  return inventory;
}

// A node moved between racks: each of the 100 selectors is re-checked
// against that node only.
void BM_NodeLabelChange(benchmark::State& state) {
  auto inventory = Fleet(MakeObjects());
  auto a = Node(7, RackOf(7));
  auto b = Node(7, RackOf(8));
  bool flip = false;
  for (auto _ : state) {
    inventory->ApplyNode(flip ? a : b);
    flip = !flip;
  }
}
BENCHMARK(BM_NodeLabelChange)->Unit(benchmark::kMicrosecond);

// A rack driver republishing its slice: a new selector object, evaluated
// against all 5,000 nodes, and its 8 devices against every class.
void BM_SelectorSliceEvent(benchmark::State& state) {
  auto inventory = Fleet(MakeObjects());
  std::vector<std::shared_ptr<const api::ResourceSlice>> updates{RackSlice(3, 2), RackSlice(3, 2)};
  size_t i = 0;
  for (auto _ : state) inventory->ApplySlice(updates[i++ % 2]);
}
BENCHMARK(BM_SelectorSliceEvent)->Unit(benchmark::kMicrosecond);

void BM_CountOnNode(benchmark::State& state) {
  auto inventory = Fleet(MakeObjects());
  int node = 0;
  for (auto _ : state) {
    auto counts = inventory->Count("class-0", "node-" + std::to_string(node++ % kNodes));
    benchmark::DoNotOptimize(counts);
  }
}
BENCHMARK(BM_CountOnNode)->Unit(benchmark::kMicrosecond);

void BM_CountPerNode(benchmark::State& state) {
  auto inventory = Fleet(MakeObjects());
  for (auto _ : state) {
    auto counts = inventory->CountPerNode("class-0");
    benchmark::DoNotOptimize(counts);
  }
}
BENCHMARK(BM_CountPerNode)->Unit(benchmark::kMillisecond);

// Heap the inventory adds beyond the projections it holds, node labels
// included, per device (40,800).
void BM_InventoryHeapPerDevice(benchmark::State& state) {
  for (auto _ : state) {
    Objects objects = MakeObjects();
    int64_t before = dra::testing::LiveHeapBytes();
    auto inventory = Fleet(objects);
    int64_t after = dra::testing::LiveHeapBytes();
    state.counters["inventory_bytes/device"] =
        static_cast<double>(after - before) / ((kNodes + kRacks) * kGpus);
  }
}
BENCHMARK(BM_InventoryHeapPerDevice)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
