// /metrics cost of the allocation metrics at fleet scale (docs/design.md §5:
// 5,000 nodes x 8 GPUs = 40k devices, 50 DeviceClasses, target <= 100 ms):
// the refresh after an inventory change (one pass over claims and devices,
// rendered straight to text exposition), and a scrape between changes (the
// Manager's handler: its registry serialized, then the cached text appended
// by kube::ExpositionSources), and the same scrape through the real
// kube::EndpointServer over a loopback socket, as a scraper sees it (wall
// time, and the server's CPU per scrape).
// Half the devices are allocated (one claim each, reserved by a Pod), one
// node in 100 has a NoExecute DeviceTaintRule on a device, and the info
// metric carries two attributes.
#include <benchmark/benchmark.h>
#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>
#include <sys/resource.h>

#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "controller/inventory/Inventory.h"
#include "controller/metrics/AllocationMetrics.h"
#include "controller/metrics/ExpositionCache.h"
#include "src/http/EndpointServer.h"
#include "src/manager/ExpositionSources.h"
#include "tests/support/RawHttpClient.h"

namespace {

using dra::inventory::Inventory;
namespace api = dra::api;
namespace metrics = dra::metrics;

constexpr int kGpusPerNode = 8;
constexpr int kClasses = 50;

api::Device Gpu(int index, int node) {
  api::Device device;
  device.name = "gpu-" + std::to_string(index);
  const int64_t memory_gi = (node % 4 == 0) ? 80 : (node % 4 == 1 ? 40 : 24);
  device.attributes.emplace_back("model",
                                 api::AttributeValue("model-" + std::to_string(node % 10)));
  device.attributes.emplace_back(
      "uuid", api::AttributeValue("GPU-" + std::to_string(node) + "-" + std::to_string(index)));
  device.capacity.emplace_back("memory", kube::Quantity::FromInt64(memory_gi << 30));
  return device;
}

std::shared_ptr<const api::ResourceSlice> NodeSlice(int node) {
  auto slice = std::make_shared<api::ResourceSlice>();
  std::string name = "node-" + std::to_string(node);
  slice->meta.name = name + "-gpu.example.com";
  slice->driver = "gpu.example.com";
  slice->pool = {name, 1, 1};
  slice->node_selection = api::ResourceSlice::NodeSelection::kNodeName;
  slice->node_name = name;
  for (int i = 0; i < kGpusPerNode; ++i) slice->devices.push_back(Gpu(i, node));
  return slice;
}

// Model and minimum memory, as operators write classes; every tenth class
// also names an extended resource.
std::shared_ptr<const api::DeviceClass> ClassNumber(int k) {
  auto cls = std::make_shared<api::DeviceClass>();
  cls->meta.name = "class-" + std::to_string(k);
  std::string model = "model-" + std::to_string(k % 10);
  std::string memory = std::to_string(16 + (k % 5) * 16) + "Gi";
  cls->selectors.push_back(
      R"(device.attributes["gpu.example.com"].model == ")" + model +
      R"(" && device.capacity["gpu.example.com"].memory.compareTo(quantity(")" + memory +
      R"(")) >= 0)");
  if (k % 10 == 0) cls->extended_resource_name = "example.com/gpu-" + std::to_string(k);
  return cls;
}

std::shared_ptr<const api::ResourceClaim> ClaimFor(int node, int gpu) {
  auto claim = std::make_shared<api::ResourceClaim>();
  std::string pod = "job-" + std::to_string(node) + "-" + std::to_string(gpu);
  claim->meta.namespace_name = "team-" + std::to_string(node % 20);
  claim->meta.name = pod + "-gpu";
  claim->pod_claim_name = "gpu";
  claim->allocated = true;
  api::ResourceClaim::AllocationResult result;
  result.request = "gpu";
  result.driver = "gpu.example.com";
  result.pool = "node-" + std::to_string(node);
  result.device = "gpu-" + std::to_string(gpu);
  claim->results.push_back(std::move(result));
  claim->reserved_for.push_back({"pods", pod, pod + "-uid"});
  return claim;
}

std::shared_ptr<const api::DeviceTaintRule> TaintFor(int node) {
  auto rule = std::make_shared<api::DeviceTaintRule>();
  rule->meta.name = "bad-" + std::to_string(node);
  rule->selector =
      api::DeviceTaintRule::Selector{"gpu.example.com", "node-" + std::to_string(node), "gpu-7"};
  rule->taint.key = "example.com/unhealthy";
  rule->taint.effect = api::TaintEffect::kNoExecute;
  return rule;
}

std::unique_ptr<Inventory> Fleet(int nodes) {
  auto inventory = std::make_unique<Inventory>();
  for (int k = 0; k < kClasses; ++k) inventory->ApplyClass(ClassNumber(k));
  for (int n = 0; n < nodes; ++n) {
    inventory->ApplySlice(NodeSlice(n));
    for (int g = 0; g < kGpusPerNode / 2; ++g) inventory->ApplyClaim(ClaimFor(n, g));
    if (n % 100 == 0) inventory->ApplyTaintRule(TaintFor(n));
  }
  return inventory;
}

metrics::MetricsSources Sources(const Inventory& inventory) {
  metrics::MetricsSources sources;
  sources.inventory = &inventory;
  sources.unhealthy_devices = [] {
    return std::vector<std::string>{"gpu.example.com/node-1/gpu-7"};
  };
  sources.device_attributes = {"model", "uuid"};
  return sources;
}

size_t SeriesOf(const std::string& text) {
  size_t series = 0;
  for (size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
    if (text[at] != '#') ++series;
  }
  return series;
}

// What one inventory change costs, in the background.
void BM_Render(benchmark::State& state) {
  auto inventory = Fleet(static_cast<int>(state.range(0)));
  metrics::AllocationMetrics collector(Sources(*inventory));
  std::string text;
  for (auto _ : state) text = collector.Render();
  state.counters["devices"] = static_cast<double>(inventory->device_count());
  state.counters["series"] = static_cast<double>(SeriesOf(text));
  state.counters["bytes"] = static_cast<double>(text.size());
}

// What a /metrics request costs between changes: the Manager's handler with
// a registry holding one runtime family, and the allocation text cached.
void BM_ScrapeBetweenChanges(benchmark::State& state) {
  auto inventory = Fleet(static_cast<int>(state.range(0)));
  metrics::AllocationMetrics collector(Sources(*inventory));
  auto cache = std::make_shared<metrics::ExpositionCache>();
  cache->Store(collector.Render());
  kube::ExpositionSources sources;
  sources.Add("allocation-metrics", [cache] { return cache->Load(); });
  auto registry = std::make_shared<prometheus::Registry>();
  prometheus::BuildCounter()
      .Name("rest_client_requests_total")
      .Register(*registry)
      .Add({})
      .Increment();
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = prometheus::TextSerializer().Serialize(registry->Collect());
    sources.AppendTo(text);
    bytes = text.size();
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}

// The runtime's own families as a running controller has them: a few
// counters and histograms by queue, verb and code (a few hundred lines).
std::shared_ptr<prometheus::Registry> RuntimeRegistry() {
  auto registry = std::make_shared<prometheus::Registry>();
  auto& requests =
      prometheus::BuildCounter().Name("rest_client_requests_total").Register(*registry);
  auto& latency =
      prometheus::BuildHistogram().Name("workqueue_queue_duration_seconds").Register(*registry);
  for (const char* queue : {"devicehealth", "extended-resource-pods", "leaks", "findings"}) {
    latency
        .Add({{"name", queue}},
             prometheus::Histogram::BucketBoundaries{1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1,
                                                     1, 10})
        .Observe(0.002);
    for (const char* code : {"200", "201", "404", "409"}) {
      requests.Add({{"name", queue}, {"code", code}}).Increment();
    }
  }
  return registry;
}

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// The Manager's /metrics handler (src/manager/Manager.cc): the registry
// serialized, then the sources' cached texts, shared (`copied` = false) or,
// as before, appended into one string.
kube::EndpointServer::Handler ScrapeHandler(std::shared_ptr<prometheus::Registry> registry,
                                            std::shared_ptr<kube::ExpositionSources> sources,
                                            bool copied) {
  return [registry, sources, copied] {
    kube::EndpointServer::Reply reply{200,
                                      prometheus::TextSerializer().Serialize(registry->Collect()),
                                      "text/plain; version=0.0.4; charset=utf-8"};
    if (copied) {
      sources->AppendTo(reply.body);
    } else {
      reply.shared_body = sources->Texts();
    }
    return reply;
  };
}

// A scrape as Prometheus sees it: GET /metrics on the real EndpointServer
// over a loopback socket, read to the end. Wall time per scrape, and the
// server side's CPU (the process's minus this client thread's).
void ScrapeThroughEndpoint(benchmark::State& state, bool copied) {
  auto inventory = Fleet(static_cast<int>(state.range(0)));
  metrics::AllocationMetrics collector(Sources(*inventory));
  auto cache = std::make_shared<metrics::ExpositionCache>();
  cache->Store(collector.Render());
  auto sources = std::make_shared<kube::ExpositionSources>();
  sources->Add("allocation-metrics", [cache] { return cache->Load(); });
  auto registry = RuntimeRegistry();
  auto handler = ScrapeHandler(registry, sources, copied);
  auto server = kube::EndpointServer::Start("127.0.0.1:0", {{"/metrics", handler}});
  if (!server.ok()) return state.SkipWithError(server.status().ToString().c_str());
  int port = (*server)->port();
  auto expected = handler();
  std::string want = expected.body;
  for (const auto& text : expected.shared_body) want += *text;
  auto check = dra::testing::RawHttpClient::Send(port, "GET", "/metrics");
  if (!check.ok() || check->body != want || want.find(*cache->Load()) == std::string::npos) {
    return state.SkipWithError("the scrape is not the registry text followed by the cache");
  }
  std::size_t bytes = 0;
  double process0 = ProcessCpuSeconds();
  double client0 = ThreadCpuSeconds();
  for (auto _ : state) {
    auto reply = dra::testing::RawHttpClient::Send(port, "GET", "/metrics", false);
    if (!reply.ok()) return state.SkipWithError(reply.status().ToString().c_str());
    bytes = reply->body_bytes;
  }
  double client = ThreadCpuSeconds() - client0;
  double server_cpu = ProcessCpuSeconds() - process0 - client;
  double n = static_cast<double>(state.iterations());
  state.counters["server_cpu_ms"] = server_cpu * 1000 / n;
  state.counters["client_cpu_ms"] = client * 1000 / n;
  state.counters["bytes"] = static_cast<double>(bytes);
}

void BM_ScrapeThroughEndpoint(benchmark::State& state) { ScrapeThroughEndpoint(state, false); }
void BM_ScrapeThroughEndpointCopied(benchmark::State& state) { ScrapeThroughEndpoint(state, true); }

BENCHMARK(BM_Render)->Arg(500)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScrapeBetweenChanges)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScrapeThroughEndpoint)->Arg(5000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScrapeThroughEndpointCopied)->Arg(5000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
