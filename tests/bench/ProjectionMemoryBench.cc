// Heap bytes per cached dra::api projection, through the informer's list
// path (limits: <= 2 KiB per Pod, <= 1 KiB per ResourceSlice device). Every
// allocation of this binary is counted (tests/support/HeapCounter), so the
// figures include store keys, shared_ptr control blocks and allocator
// rounding.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "controller/api/PodView.h"
#include "controller/api/ResourceSlice.h"
#include "src/cache/Store.h"
#include "src/cache/StoreSink.h"
#include "src/cache/WatchDecoder.h"
#include "src/client/ResourceType.h"
#include "tests/support/FakeObjects.h"
#include "tests/support/HeapCounter.h"

namespace {

using dra::testing::LiveHeapBytes;

template <typename T, typename MakeJson>
double BytesPer(kube::ResourceType /*type*/, int objects, int units_per_object,
                MakeJson make_json) {
  kube::WatchDecoder decoder;
  auto store = std::make_unique<kube::Store<T>>();
  auto sink = std::make_unique<kube::StoreSink<T>>(*store, T::FromJson);
  int64_t before = LiveHeapBytes();
  sink->BeginReplace();
  for (int i = 0; i < objects; ++i) {
    std::string json = make_json(i);
    auto doc = decoder.ParseDocument(json);
    if (doc.ok()) (void)sink->ReplaceItem(*doc);
  }
  sink->EndReplace("1");
  int64_t after = LiveHeapBytes();
  if (store->Size() != static_cast<size_t>(objects)) return -1;
  return static_cast<double>(after - before) / (static_cast<double>(objects) * units_per_object);
}

void BM_HeapPerCachedPodView(benchmark::State& state) {
  double per_pod = 0;
  for (auto _ : state) {
    per_pod = BytesPer<dra::api::PodView>(dra::api::PodView::kResource, 20000, 1,
                                          [](int i) { return dra::testing::FakePodJson(i); });
  }
  state.counters["bytes_per_pod"] = per_pod;
}
BENCHMARK(BM_HeapPerCachedPodView)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_HeapPerCachedResourceSliceDevice(benchmark::State& state) {
  constexpr int kSlices = 5000, kDevicesPerSlice = 8;
  double per_device = 0;
  for (auto _ : state) {
    per_device = BytesPer<dra::api::ResourceSlice>(
        dra::api::ResourceSlice::kResource, kSlices, kDevicesPerSlice,
        [](int i) { return dra::testing::FakeSliceJson(i, kDevicesPerSlice); });
  }
  state.counters["bytes_per_device"] = per_device;
}
BENCHMARK(BM_HeapPerCachedResourceSliceDevice)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
