// Watch/list decode throughput (docs/design.md §5 target: >= 300 MB/s per core),
// with nlohmann's DOM as the baseline the choice of simdjson is measured against.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/cache/LineSplitter.h"
#include "src/cache/MetaObject.h"
#include "src/cache/WatchDecoder.h"
#include "tests/support/FakeObjects.h"

namespace {

using dra::testing::FakePodJson;
using dra::testing::FakeSliceJson;

// 1,000 Pod watch events as the server streams them, newline-delimited.
const std::string& PodWatchStream() {
  static const std::string stream = [] {
    std::string s;
    for (int i = 0; i < 1000; ++i)
      s += dra::testing::WatchLine(i % 3 ? "MODIFIED" : "ADDED", FakePodJson(i)) + "\n";
    return s;
  }();
  return stream;
}

const std::string& PodListPage() {
  static const std::string page = [] {
    std::string items;
    for (int i = 0; i < 500; ++i) items += (i ? "," : "") + FakePodJson(i);
    return dra::testing::ListBody("PodList", items);
  }();
  return page;
}

// The reflector's path: split chunks into lines, decode, project metadata.
void BM_WatchStreamDecode(benchmark::State& state) {
  const std::string& stream = PodWatchStream();
  kube::WatchDecoder decoder;
  size_t projected = 0;
  for (auto _ : state) {
    kube::LineSplitter splitter;
    for (size_t off = 0; off < stream.size(); off += 16384) {
      splitter.Feed(std::string_view(stream).substr(off, 16384), [&](std::string_view line) {
        auto event = decoder.Decode(line);
        if (event.ok() && kube::MetaObject::FromJson(event->object.json()).ok()) ++projected;
        return true;
      });
    }
  }
  benchmark::DoNotOptimize(projected);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream.size()));
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(state.iterations() * 1000),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WatchStreamDecode);

void BM_ListPageDecode(benchmark::State& state) {
  const std::string& page = PodListPage();
  kube::WatchDecoder decoder;
  size_t projected = 0;
  for (auto _ : state) {
    auto doc = decoder.ParseDocument(page);
    simdjson::dom::array items;
    if (doc.ok() && (*doc)["items"].get(items) == simdjson::SUCCESS) {
      for (auto item : items) projected += kube::MetaObject::FromJson(item).ok();
    }
  }
  benchmark::DoNotOptimize(projected);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_ListPageDecode);

void BM_SliceWatchDecode(benchmark::State& state) {
  std::string stream;
  for (int i = 0; i < 200; ++i)
    stream += dra::testing::WatchLine("ADDED", FakeSliceJson(i, 8)) + "\n";
  kube::WatchDecoder decoder;
  for (auto _ : state) {
    kube::LineSplitter splitter;
    splitter.Feed(stream, [&](std::string_view line) {
      auto event = decoder.Decode(line);
      benchmark::DoNotOptimize(event.ok());
      return true;
    });
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream.size()));
}
BENCHMARK(BM_SliceWatchDecode);

// Baseline: the same stream through nlohmann's DOM parser.
void BM_WatchStreamDecodeNlohmann(benchmark::State& state) {
  const std::string& stream = PodWatchStream();
  for (auto _ : state) {
    size_t start = 0;
    while (start < stream.size()) {
      size_t end = stream.find('\n', start);
      auto doc =
          nlohmann::json::parse(stream.begin() + start, stream.begin() + end, nullptr, false);
      benchmark::DoNotOptimize(doc.is_discarded());
      start = end + 1;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream.size()));
}
BENCHMARK(BM_WatchStreamDecodeNlohmann);

}  // namespace
