// Heap bytes per cached object (docs/design.md §5: <= 2 KiB per Pod, <= 1 KiB per
// device; client-go informers hold 14-36 KiB per Pod). Every allocation of
// this binary is counted, so the figure includes keys, indexes, shared_ptr
// control blocks and allocator overhead (malloc_usable_size).
#include <benchmark/benchmark.h>

#include <string>
#include <variant>

#include "src/api/Quantity.h"
#include "src/cache/JsonFields.h"
#include "src/cache/MetaObject.h"
#include "src/cache/Store.h"
#include "src/cache/StoreSink.h"
#include "src/cache/WatchDecoder.h"
#include "tests/support/FakeObjects.h"
#include "tests/support/HeapCounter.h"

using dra::testing::LiveHeapBytes;

namespace {

// Loads `count` objects through the informer's list path and returns the
// growth of live heap bytes, i.e. what the cache holds for them.
template <typename MakeJson>
double BytesPerObject(int count, MakeJson make_json) {
  kube::WatchDecoder decoder;
  auto store = std::make_unique<kube::Store<kube::MetaObject>>();
  auto sink =
      std::make_unique<kube::StoreSink<kube::MetaObject>>(*store, kube::MetaObject::FromJson);
  int64_t before = LiveHeapBytes();
  sink->BeginReplace();
  for (int i = 0; i < count; ++i) {
    std::string json = make_json(i);
    auto doc = decoder.ParseDocument(json);
    if (doc.ok()) (void)sink->ReplaceItem(*doc);
  }
  sink->EndReplace("1");
  int64_t after = LiveHeapBytes();
  if (store->Size() != static_cast<size_t>(count)) return -1;
  return static_cast<double>(after - before) / count;
}

void BM_HeapPerCachedPodMetadata(benchmark::State& state) {
  double per_pod = 0;
  for (auto _ : state)
    per_pod = BytesPerObject(20000, [](int i) { return dra::testing::FakePodJson(i); });
  state.counters["bytes_per_pod"] = per_pod;
}
BENCHMARK(BM_HeapPerCachedPodMetadata)->Iterations(1)->Unit(benchmark::kMillisecond);

// A ResourceSlice projection keeping what allocation decisions need: per
// device its name, typed attributes and capacities (as exact quantities).
struct SliceDevices {
  kube::ObjectMeta meta;
  std::string driver, pool, node;
  struct Device {
    std::string name;
    std::vector<std::pair<std::string, std::variant<int64_t, bool, std::string>>> attributes;
    std::vector<std::pair<std::string, kube::Quantity>> capacity;
  };
  std::vector<Device> devices;

  static kube::Result<SliceDevices> FromJson(simdjson::dom::element object) {
    auto meta = kube::ObjectMeta::FromObject(object);
    if (!meta.ok()) return meta.status();
    SliceDevices slice{std::move(*meta), {}, {}, {}, {}};
    auto spec = kube::json::Field(object, "spec");
    slice.driver = kube::json::StringOr(spec, "driver");
    slice.pool = kube::json::StringOr(kube::json::Field(spec, "pool"), "name");
    slice.node = kube::json::StringOr(spec, "nodeName");
    simdjson::dom::array devices;
    if (kube::json::Field(spec, "devices").get(devices) != simdjson::SUCCESS) return slice;
    for (auto d : devices) slice.devices.push_back(ParseDevice(d));
    return slice;
  }

  static Device ParseDevice(simdjson::dom::element d) {
    Device device{std::string(kube::json::StringOr(d, "name")), {}, {}};
    simdjson::dom::object attributes, capacity;
    if (kube::json::Field(d, "attributes").get(attributes) == simdjson::SUCCESS) {
      for (auto [key, value] : attributes) {
        std::string_view s;
        int64_t i;
        bool b;
        if (value["string"].get(s) == simdjson::SUCCESS ||
            value["version"].get(s) == simdjson::SUCCESS) {
          device.attributes.emplace_back(std::string(key), std::string(s));
        } else if (value["int"].get(i) == simdjson::SUCCESS) {
          device.attributes.emplace_back(std::string(key), i);
        } else if (value["bool"].get(b) == simdjson::SUCCESS) {
          device.attributes.emplace_back(std::string(key), b);
        }
      }
    }
    if (kube::json::Field(d, "capacity").get(capacity) == simdjson::SUCCESS) {
      for (auto [key, value] : capacity) {
        auto q = kube::Quantity::Parse(kube::json::StringOr(value, "value"));
        if (q.ok()) device.capacity.emplace_back(std::string(key), *q);
      }
    }
    return device;
  }
};

void BM_HeapPerCachedSliceDevice(benchmark::State& state) {
  constexpr int kSlices = 5000, kDevicesPerSlice = 8;  // docs/design.md's 5,000 nodes x 8 GPUs
  double per_device = 0;
  for (auto _ : state) {
    kube::WatchDecoder decoder;
    auto store = std::make_unique<kube::Store<SliceDevices>>();
    auto sink = std::make_unique<kube::StoreSink<SliceDevices>>(*store, SliceDevices::FromJson);
    int64_t before = LiveHeapBytes();
    sink->BeginReplace();
    for (int i = 0; i < kSlices; ++i) {
      auto doc = decoder.ParseDocument(dra::testing::FakeSliceJson(i, kDevicesPerSlice));
      if (doc.ok()) (void)sink->ReplaceItem(*doc);
    }
    sink->EndReplace("1");
    per_device = static_cast<double>(LiveHeapBytes() - before) / (kSlices * kDevicesPerSlice);
  }
  state.counters["bytes_per_device"] = per_device;
}
BENCHMARK(BM_HeapPerCachedSliceDevice)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
