// The memory regression gate `make test` runs: heap bytes per cached Pod,
// ResourceSlice device, inventory device and ResourceClaim, loaded through the
// informer's list path from a fixed generated fleet, compared with the
// baseline committed in tests/gate/memory-baseline.json. Exit 1 when any
// figure grew more than the tolerance (10 %), 2 on a usage or baseline error.
//
//   memory_gate BASELINE_JSON              check
//   memory_gate BASELINE_JSON --write      record the current figures
//
// Every allocation of this binary is counted (tests/support/HeapCounter.h),
// so the figures include store keys, shared_ptr control blocks and
// allocator rounding; they are exact and repeatable, unlike a timing.
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "controller/api/DeviceClass.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/inventory/Inventory.h"
#include "src/cache/Store.h"
#include "src/cache/StoreSink.h"
#include "src/cache/WatchDecoder.h"
#include "tests/support/FakeObjects.h"
#include "tests/support/HeapCounter.h"

namespace {

namespace api = dra::api;
using dra::testing::LiveHeapBytes;

constexpr double kTolerance = 0.10;
constexpr int kPods = 20000;
constexpr int kSlices = 2000;
constexpr int kDevicesPerSlice = 8;
constexpr int kClaims = 10000;
constexpr int kClasses = 10;

// Fills `store` through the informer's list path and returns the live heap
// growth.
template <typename T, typename MakeJson>
int64_t LoadThroughListPath(kube::Store<T>& store, int objects, MakeJson make_json) {
  kube::WatchDecoder decoder;
  kube::StoreSink<T> sink(store, T::FromJson);
  // The parser allocates its buffers on first use; they are not the cache's.
  (void)decoder.ParseDocument(make_json(0));
  int64_t before = LiveHeapBytes();
  sink.BeginReplace();
  for (int i = 0; i < objects; ++i) {
    std::string json = make_json(i);
    auto doc = decoder.ParseDocument(json);
    if (doc.ok()) (void)sink.ReplaceItem(*doc);
  }
  sink.EndReplace("1");
  return LiveHeapBytes() - before;
}

std::shared_ptr<const api::DeviceClass> GpuClass(int k) {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = "class-" + std::to_string(k);
  cls->selectors.push_back(R"(device.driver == "gpu.example.com")");
  cls->selectors.push_back(R"(device.capacity["gpu.example.com"].memory.compareTo(quantity(")" +
                           std::to_string(16 * (k + 1)) + R"(Gi")) >= 0)");
  return cls;
}

struct Figures {
  std::map<std::string, double> bytes;
  bool complete = true;  // every generated object was cached
};

Figures Measure() {
  Figures figures;
  kube::Store<api::PodView> pods;
  int64_t pod_bytes =
      LoadThroughListPath(pods, kPods, [](int i) { return dra::testing::FakePodJson(i); });
  figures.bytes["bytes_per_pod"] = static_cast<double>(pod_bytes) / kPods;

  kube::Store<api::ResourceSlice> slices;
  int64_t slice_bytes = LoadThroughListPath(
      slices, kSlices, [](int i) { return dra::testing::FakeSliceJson(i, kDevicesPerSlice); });
  constexpr double kDevices = static_cast<double>(kSlices) * kDevicesPerSlice;
  figures.bytes["bytes_per_slice_device"] = static_cast<double>(slice_bytes) / kDevices;

  kube::Store<api::ResourceClaim> claims;
  int64_t claim_bytes = LoadThroughListPath(
      claims, kClaims, [](int i) { return dra::testing::FakeAllocatedClaimJson(i); });
  figures.bytes["bytes_per_claim"] = static_cast<double>(claim_bytes) / kClaims;

  int64_t before = LiveHeapBytes();
  auto inventory = std::make_unique<dra::inventory::Inventory>();
  for (int k = 0; k < kClasses; ++k) inventory->ApplyClass(GpuClass(k));
  for (const auto& slice : slices.List()) inventory->ApplySlice(slice);
  for (const auto& claim : claims.List()) inventory->ApplyClaim(claim);
  figures.bytes["inventory_bytes_per_device"] =
      static_cast<double>(LiveHeapBytes() - before) / kDevices;

  figures.complete = pods.Size() == static_cast<size_t>(kPods) &&
                     slices.Size() == static_cast<size_t>(kSlices) &&
                     claims.Size() == static_cast<size_t>(kClaims) &&
                     inventory->device_count() == static_cast<size_t>(kDevices);
  return figures;
}

int WriteBaseline(const std::string& path, const Figures& figures) {
  nlohmann::json baseline = nlohmann::json::object();
  for (const auto& [name, value] : figures.bytes)
    baseline[name] = static_cast<int64_t>(value + 0.5);
  std::ofstream out(path);
  out << baseline.dump(2) << "\n";
  if (!out) {
    std::fprintf(stderr, "memory gate: cannot write %s\n", path.c_str());
    return 2;
  }
  std::printf("memory gate: baseline written to %s\n", path.c_str());
  return 0;
}

int Check(const std::string& path, const Figures& figures) {
  std::ifstream in(path);
  nlohmann::json baseline = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!baseline.is_object()) {
    std::fprintf(stderr, "memory gate: %s is missing or not a JSON object\n", path.c_str());
    return 2;
  }
  int failures = 0;
  std::printf("%-28s %10s %10s %8s\n", "figure (heap bytes)", "baseline", "now", "change");
  for (const auto& [name, value] : figures.bytes) {
    if (!baseline.contains(name) || !baseline[name].is_number()) {
      std::fprintf(stderr, "memory gate: %s has no figure %s (rerun with --write)\n", path.c_str(),
                   name.c_str());
      return 2;
    }
    double base = baseline[name].get<double>();
    double change = base > 0 ? (value - base) / base : 0;
    bool grew = change > kTolerance;
    failures += grew ? 1 : 0;
    std::printf("%-28s %10.0f %10.0f %+7.1f%%%s\n", name.c_str(), base, value, change * 100,
                grew ? "  FAIL: more than 10 % over the baseline" : "");
  }
  if (failures > 0) {
    std::fprintf(stderr,
                 "memory gate: %d figure(s) grew more than 10 %%; if the growth is intended, "
                 "record it with `memory_gate %s --write` and say why in the commit\n",
                 failures, path.c_str());
    return 1;
  }
  std::printf("memory gate: every figure within 10 %% of the baseline\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool write = argc == 3 && std::string(argv[2]) == "--write";
  if (argc != 2 && !write) {
    std::fprintf(stderr, "usage: %s BASELINE_JSON [--write]\n", argv[0]);
    return 2;
  }
  Figures figures = Measure();
  if (!figures.complete) {
    std::fprintf(stderr, "memory gate: the generated fleet did not load completely\n");
    return 2;
  }
  return write ? WriteBaseline(argv[1], figures) : Check(argv[1], figures);
}
