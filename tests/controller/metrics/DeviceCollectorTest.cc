#include <gtest/gtest.h>

#include <sstream>

#include "controller/metrics/DeviceCollector.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::metrics {
namespace {

// The dra_controller_devices_tainted samples of one (pool, class) group.
std::string TaintedSamples(const inventory::Inventory& inventory) {
  DeviceCollector collector({});
  inventory.VisitDevices([&](const inventory::DeviceVisit& d) { collector.Add(d); });
  std::string out;
  collector.Render(out);
  std::istringstream in(out);
  std::string line;
  std::string samples;
  while (std::getline(in, line)) {
    if (line.starts_with("dra_controller_devices_tainted{")) {
      samples += line.substr(line.find("effect=")) + "\n";
    }
  }
  return samples;
}

// node-a: gpu-0 its driver taints NoExecute, gpu-1 a DeviceTaintRule taints
// NoSchedule, gpu-2 both taint NoExecute, gpu-3 a driver taint with effect
// None (blocks nothing).
TEST(DeviceCollectorTest, TaintedCountsBySource) {
  inventory::Inventory inventory;
  inventory.ApplyClass(testing::Class("gpu", {"device.driver == 'gpu.example.com'"}));
  inventory.ApplySlice(testing::Slice(
      "node-a-gpus", "node-a",
      {testing::DriverTainted(testing::Gpu("gpu-0", 80, "h100"), "gpu.nvidia.com/xid", "48",
                              api::TaintEffect::kNoExecute),
       testing::Gpu("gpu-1", 80, "h100"),
       testing::DriverTainted(testing::Gpu("gpu-2", 80, "h100"), "gpu.nvidia.com/xid", "79",
                              api::TaintEffect::kNoExecute),
       testing::DriverTainted(testing::Gpu("gpu-3", 80, "h100"), "gpu.nvidia.com/note", "",
                              api::TaintEffect::kNone)}));
  inventory.ApplyTaintRule(
      testing::TaintRule("devicehealth-a1", "node-a", "gpu-1", api::TaintEffect::kNoSchedule));
  inventory.ApplyTaintRule(
      testing::TaintRule("ops-drain", "node-a", "gpu-2", api::TaintEffect::kNoExecute));
  EXPECT_EQ(TaintedSamples(inventory),
            "effect=\"NoExecute\",source=\"driver\"} 2\n"
            "effect=\"NoExecute\",source=\"rule\"} 1\n"
            "effect=\"NoSchedule\",source=\"driver\"} 0\n"
            "effect=\"NoSchedule\",source=\"rule\"} 1\n");
}

// A pool without taints still has all four series, at zero: an alert on a
// source never sees the series vanish.
TEST(DeviceCollectorTest, UntaintedPoolHasEveryTaintedSeriesAtZero) {
  inventory::Inventory inventory;
  inventory.ApplySlice(
      testing::Slice("node-a-gpus", "node-a", {testing::Gpu("gpu-0", 80, "h100")}));
  EXPECT_EQ(TaintedSamples(inventory),
            "effect=\"NoExecute\",source=\"driver\"} 0\n"
            "effect=\"NoExecute\",source=\"rule\"} 0\n"
            "effect=\"NoSchedule\",source=\"driver\"} 0\n"
            "effect=\"NoSchedule\",source=\"rule\"} 0\n");
}

}  // namespace
}  // namespace dra::metrics
