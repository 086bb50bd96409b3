// Heap bytes per cached object (DESIGN.md §5: <= 2 KiB per Pod, <= 1 KiB per
// device; client-go informers hold 14-36 KiB per Pod). Every allocation of
// this binary is counted, so the figure includes keys, indexes, shared_ptr
// control blocks and allocator overhead (malloc_usable_size).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "src/cache/WatchDecoder.h"
#include "tests/support/FakeObjects.h"

namespace {
std::atomic<int64_t> g_live_bytes{0};
}  // namespace

void* operator new(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  g_live_bytes += static_cast<int64_t>(malloc_usable_size(p));
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_live_bytes -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, size_t) noexcept { operator delete(p); }

namespace {

// Loads `count` objects through the informer's list path and returns the
// growth of live heap bytes, i.e. what the cache holds for them.
template <typename MakeJson>
double BytesPerObject(int count, MakeJson make_json) {
  kube::WatchDecoder decoder;
  auto informer = std::make_unique<kube::Informer<kube::MetaObject>>(
      nullptr, kube::ResourceType{"", "v1", "pods", true, "Pod"}, kube::MetaObject::FromJson);
  int64_t before = g_live_bytes;
  informer->BeginReplace();
  for (int i = 0; i < count; ++i) {
    std::string json = make_json(i);
    auto doc = decoder.ParseDocument(json);
    if (doc.ok()) (void)informer->ReplaceItem(*doc);
  }
  informer->EndReplace("1");
  int64_t after = g_live_bytes;
  if (informer->store().Size() != static_cast<size_t>(count)) return -1;
  return static_cast<double>(after - before) / count;
}

void BM_HeapPerCachedPodMetadata(benchmark::State& state) {
  double per_pod = 0;
  for (auto _ : state)
    per_pod = BytesPerObject(20000, [](int i) { return dra::testing::FakePodJson(i); });
  state.counters["bytes_per_pod"] = per_pod;
}
BENCHMARK(BM_HeapPerCachedPodMetadata)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
