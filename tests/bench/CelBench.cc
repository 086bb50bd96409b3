// Cost of evaluating a compiled DRA selector per device (docs/design.md: 40k devices
// x 50 classes must be cheap to recompute).
#include <benchmark/benchmark.h>

#include "controller/cel/Program.h"

namespace {

dra::cel::Device Gpu(const std::string& model, const std::string& memory) {
  dra::cel::Device device;
  device.driver = "gpu.example.com";
  device.attributes["gpu.example.com"]["type"] = std::string("gpu");
  device.attributes["gpu.example.com"]["model"] = model;
  device.attributes["gpu.example.com"]["index"] = int64_t{0};
  device.capacity["gpu.example.com"]["memory"] = *kube::Quantity::Parse(memory);
  return device;
}

void BM_SelectorEvaluation(benchmark::State& state) {
  auto program = dra::cel::Program::Compile(
      R"(device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "gpu-80g" && )"
      R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)");
  if (!program.ok()) {
    state.SkipWithError(program.status().ToString().c_str());
    return;
  }
  const dra::cel::Device devices[] = {Gpu("gpu-24g", "24Gi"), Gpu("gpu-80g", "80Gi")};
  size_t i = 0, matches = 0;
  for (auto _ : state) {
    auto result = (*program)->Evaluate(devices[i++ & 1]);
    matches += result.ok() && *result;
  }
  benchmark::DoNotOptimize(matches);
  state.counters["evals/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SelectorEvaluation);

}  // namespace
