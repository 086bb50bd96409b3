#include <gtest/gtest.h>

#include <sstream>

#include "controller/metrics/AllocationMetrics.h"
#include "tests/controller/metrics/GoldenExposition.h"
#include "tests/controller/metrics/MetricsFixture.h"

namespace dra::metrics {
namespace {

using testing::MetricsFixture;

std::string Scrape(const AllocationMetrics& metrics) { return metrics.Render(); }

// The sample lines (no HELP/TYPE) of `family`, in exposition order.
std::string Samples(const std::string& exposition, const std::string& family) {
  std::istringstream in(exposition);
  std::string line;
  std::string out;
  while (std::getline(in, line)) {
    if (line.starts_with(family + "{") || line.starts_with(family + " ")) out += line + "\n";
  }
  return out;
}

bool Mentions(const std::string& exposition, const std::string& text) {
  return exposition.find(text) != std::string::npos;
}

TEST(AllocationMetricsTest, GoldenExposition) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  EXPECT_EQ(Scrape(metrics), testing::kGoldenExposition);
}

TEST(AllocationMetricsTest, ClassUnusableOnANodeHasNothingAllocatableThere) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  // The selector fails at runtime on the h100 (no "flaky" attribute), which
  // the scheduler evaluates on node-a before it gives up on the class there.
  f.inventory.ApplyClass(
      testing::Class("flaky", {"device.attributes['gpu.example.com'].model == 'a100' || "
                               "device.attributes['gpu.example.com'].flaky == 1"}));
  f.inventory.ApplySlice(
      testing::Slice("node-a-gpus", "node-a",
                     {testing::Gpu("gpu-0", 80, "a100"), testing::Gpu("gpu-1", 80, "a100"),
                      testing::Gpu("gpu-2", 80, "h100")},
                     2));
  std::string samples = Samples(Scrape(metrics), "dra_controller_devices_allocatable");
  EXPECT_TRUE(Mentions(samples, "pool=\"node-a\",node=\"node-a\",device_class=\"flaky\"} 0\n"))
      << samples;
  // gpu-0 is allocated; gpu-1 and gpu-2 are free.
  EXPECT_TRUE(Mentions(samples, "pool=\"node-a\",node=\"node-a\",device_class=\"gpu\"} 2\n"))
      << samples;
}

// An invalid pool (a device name published twice) has nothing the allocator
// would give out, as an incomplete one.
TEST(AllocationMetricsTest, InvalidPoolHasNothingAllocatable) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  f.inventory.ApplySlice(
      testing::Slice("node-a-more", "node-a", {testing::Gpu("gpu-0", 80, "a100")}, 1, 2, "node-a"));
  f.inventory.ApplySlice(
      testing::Slice("node-a-gpus", "node-a",
                     {testing::Gpu("gpu-0", 80, "a100"), testing::Gpu("gpu-1", 80, "a100")}, 1, 2));
  std::string out = Scrape(metrics);
  std::string samples = Samples(out, "dra_controller_devices_allocatable");
  EXPECT_TRUE(Mentions(samples, "pool=\"node-a\",node=\"node-a\",device_class=\"gpu\"} 0\n"))
      << samples;
  EXPECT_TRUE(Mentions(Samples(out, "dra_controller_devices_unavailable"),
                       "pool=\"node-a\",node=\"node-a\",device_class=\"gpu\",reason="
                       "\"pool_invalid\"} "))
      << out;
}

// A half of a partitionable GPU: a device consuming 40Gi of counter set gpu-0.
api::Device Half(const std::string& name) {
  api::Device half = testing::Partition(name, "gpu-0", 40);
  for (auto& [attribute, value] : half.attributes) {
    if (attribute == "model") value = api::AttributeValue(std::string("half"));
  }
  return half;
}

// A partitionable GPU on node-d (a counter slice and a device slice): the
// whole GPU is allocated, so the halves' shared counters are used up and the
// scheduler gives neither; they are not allocated either, so
// allocatable - allocated would show two phantom free devices.
TEST(AllocationMetricsTest, HalvesOfAnAllocatedPartitionableGpuAreNotAllocatable) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  auto halves = std::make_shared<api::DeviceClass>(
      *testing::Class("half", {"device.attributes['gpu.example.com'].model == 'half'"}));
  halves->extended_resource_name = "example.com/half";
  f.inventory.ApplyClass(halves);
  f.inventory.ApplySlice(testing::CounterSlice(
      "node-d-counters", "node-d", {testing::Counters("gpu-0", {{"memory", 80LL << 30}})}));
  f.inventory.ApplySlice(testing::Slice(
      "node-d-devices", "node-d",
      {testing::Partition("full", "gpu-0", 80), Half("half-0"), Half("half-1")}, 1, 2));
  f.inventory.ApplyClaim(testing::ClaimOf("whole", {testing::Result("node-d", "full")}));
  std::string out = Scrape(metrics);
  const std::string group =
      "{driver=\"gpu.example.com\",pool=\"node-d\",node=\"node-d\",device_class=\"half\"";
  EXPECT_TRUE(Mentions(Samples(out, "dra_controller_devices_allocatable"), group + "} 0\n")) << out;
  EXPECT_TRUE(Mentions(Samples(out, "dra_controller_devices_allocated"), group + "} 0\n"));
  EXPECT_TRUE(Mentions(Samples(out, "dra_controller_devices_unavailable"),
                       group + ",reason=\"counters_in_use\"} 2\n"))
      << out;
  const std::string resource = "{extended_resource=\"example.com/half\",device_class=\"half\"";
  EXPECT_TRUE(
      Mentions(Samples(out, "dra_controller_extended_resource_allocatable"), resource + "} 0\n"))
      << out;
  EXPECT_TRUE(Mentions(Samples(out, "dra_controller_extended_resource_unavailable"),
                       resource + ",reason=\"counters_in_use\"} 2\n"))
      << out;
}

TEST(AllocationMetricsTest, DeletedNodeLeavesNoSeries) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  ASSERT_TRUE(Mentions(Scrape(metrics), "node=\"node-b\""));
  f.inventory.RemoveSlice(*testing::Slice("node-b-gpus", "node-b", {}));
  f.inventory.RemoveTaintRule(*testing::TaintRule("gpu-b1", "node-b", "gpu-1", {}));
  f.nodes.pop_back();
  std::string after = Scrape(metrics);
  EXPECT_FALSE(Mentions(after, "node-b")) << after;
  EXPECT_EQ(Samples(after, "dra_controller_extended_resource_device_plugin_nodes"),
            "dra_controller_extended_resource_device_plugin_nodes{extended_resource=\"example."
            "com/gpu\"} 0\n");
  EXPECT_EQ(Samples(after, "dra_controller_extended_resource_capacity"),
            "dra_controller_extended_resource_capacity{extended_resource=\"example.com/gpu\","
            "device_class=\"gpu\"} 3\n");
}

TEST(AllocationMetricsTest, DeletedPoolLeavesNoSeriesAndKeepsStatesAtZero) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  f.inventory.RemoveSlice(*testing::Slice("node-c-gpus", "node-c", {}));
  std::string after = Scrape(metrics);
  EXPECT_FALSE(Mentions(after, "pool=\"node-c\"")) << after;
  EXPECT_EQ(Samples(after, "dra_controller_pools"),
            "dra_controller_pools{driver=\"gpu.example.com\",state=\"complete\"} 2\n"
            "dra_controller_pools{driver=\"gpu.example.com\",state=\"incomplete\"} 0\n");
}

TEST(AllocationMetricsTest, DeletedClassLeavesNoSeriesAndTheMappingMoves) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  f.inventory.RemoveClass(*testing::Class("a100", {}));
  f.inventory.RemoveClass(*testing::Class("gpu", {}));
  std::string after = Scrape(metrics);
  EXPECT_FALSE(Mentions(after, "device_class=\"a100\"")) << after;
  EXPECT_FALSE(Mentions(after, "device_class=\"gpu\"")) << after;
  EXPECT_EQ(Samples(after, "dra_controller_extended_resource_capacity"),
            "dra_controller_extended_resource_capacity{extended_resource=\"example.com/gpu\","
            "device_class=\"old-gpu\"} 5\n");
  EXPECT_EQ(Samples(after, "dra_controller_extended_resource_duplicate_classes"),
            "dra_controller_extended_resource_duplicate_classes{extended_resource=\"example."
            "com/gpu\"} 0\n");
}

TEST(AllocationMetricsTest, DeletedClassesLeaveDevicesUnderNoClass) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  for (const char* name : {"a100", "gpu", "old-gpu"}) {
    f.inventory.RemoveClass(*testing::Class(name, {}));
  }
  std::string after = Scrape(metrics);
  EXPECT_EQ(Samples(after, "dra_controller_extended_resource_capacity"), "");
  EXPECT_TRUE(Mentions(after,
                       "dra_controller_devices_published{driver=\"gpu.example.com\","
                       "pool=\"node-a\",node=\"node-a\",device_class=\"\"} 2"))
      << after;
}

TEST(AllocationMetricsTest, DeletedPodLeaksItsImplicitClaimUntilTheClaimGoes) {
  MetricsFixture f;
  AllocationMetrics metrics(f.Sources());
  f.pods.clear();  // infer-0 (owner of the implicit claim) and the Pending Pod
  std::string after = Scrape(metrics);
  EXPECT_EQ(Samples(after, "dra_controller_implicit_claims_leaked"),
            "dra_controller_implicit_claims_leaked{namespace=\"team-a\"} 1\n");
  EXPECT_EQ(Samples(after, "dra_controller_extended_resource_pods_pending"),
            "dra_controller_extended_resource_pods_pending{extended_resource=\"example.com/gpu\","
            "device_class=\"gpu\"} 0\n");

  f.inventory.RemoveClaim(*MetricsFixture::ImplicitClaim());
  after = Scrape(metrics);
  EXPECT_FALSE(Mentions(after, "infer-0")) << after;
  EXPECT_EQ(Samples(after, "dra_controller_implicit_claims_leaked"), "");
  EXPECT_TRUE(Mentions(after,
                       "dra_controller_resource_claims{namespace=\"team-a\",state="
                       "\"reserved\",source=\"extended_resource\"} 0"));
}

TEST(AllocationMetricsTest, LabelValuesAreEscaped) {
  MetricsFixture f;
  f.inventory.ApplySlice(
      testing::Slice("node-d-gpus", "node-d", {testing::Gpu("gpu-0", 80, "a\"b\\c\nd")}));
  AllocationMetrics metrics(f.Sources());
  std::string out = Scrape(metrics);
  EXPECT_TRUE(Mentions(out,
                       "dra_controller_device_info{driver=\"gpu.example.com\",pool=\"node-d\","
                       "device=\"gpu-0\",node=\"node-d\",model=\"a\\\"b\\\\c\\nd\","
                       "driverVersion=\"1.2.3\"} 1\n"))
      << out;
}

TEST(AllocationMetricsTest, NoProvidersMeansNoUnhealthyAndNoPodFamilies) {
  MetricsFixture f;
  MetricsSources sources;
  sources.inventory = &f.inventory;
  AllocationMetrics metrics(sources);
  std::string out = Scrape(metrics);
  EXPECT_FALSE(Mentions(Samples(out, "dra_controller_devices_unhealthy"), "} 1")) << out;
  EXPECT_FALSE(Mentions(out, "dra_controller_implicit_claims_leaked"));
  EXPECT_FALSE(Mentions(out, "dra_controller_extended_resource_device_plugin_nodes"));
  EXPECT_TRUE(Mentions(out,
                       "dra_controller_device_info{driver=\"gpu.example.com\",pool=\"node-a\","
                       "device=\"gpu-0\",node=\"node-a\"} 1"));
}

}  // namespace
}  // namespace dra::metrics
