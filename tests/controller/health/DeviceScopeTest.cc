#include <gtest/gtest.h>

#include "controller/health/DeviceScope.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using health::DeviceScope;

api::DeviceHealth Health(const std::string& pool, const std::string& device = "") {
  api::DeviceHealth health;
  health.driver = "gpu.example.com";
  health.pool = pool;
  health.device = device;
  return health;
}

api::ResourceClaim::AllocationResult Result(const std::string& pool, const std::string& device) {
  api::ResourceClaim::AllocationResult result;
  result.driver = "gpu.example.com";
  result.pool = pool;
  result.device = device;
  return result;
}

// node-a: 3 GPUs; node-b: 1 GPU.
class DeviceScopeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inventory_.ApplySlice(Slice(
        "a", "node-a", {Gpu("gpu-0", 24, "m"), Gpu("gpu-1", 24, "m"), Gpu("gpu-2", 24, "m")}));
    inventory_.ApplySlice(Slice("b", "node-b", {Gpu("gpu-0", 24, "m")}));
  }
  inventory::Inventory inventory_;
};

TEST_F(DeviceScopeTest, AWholePoolScopeHoldsExactlyThatPoolsDevices) {
  auto view = DeviceScope::Resolve(inventory_, Health("node-a"));
  ASSERT_EQ(view.devices.size(), 3u);
  for (const auto& device : view.devices) EXPECT_EQ(device.key.pool, "node-a");
  EXPECT_EQ(view.devices.front().key.device, "gpu-0");
  EXPECT_EQ(view.devices.back().key.device, "gpu-2");
  EXPECT_TRUE(view.pool_complete);
  EXPECT_TRUE(DeviceScope::Resolve(inventory_, Health("node-c")).devices.empty());
}

TEST_F(DeviceScopeTest, FleetCountsDevicesPerPoolAndPerDriver) {
  auto fleet = DeviceScope::Fleet(inventory_);
  EXPECT_EQ(fleet.by_pool, (std::map<std::string, int>{{"gpu.example.com/node-a", 3},
                                                       {"gpu.example.com/node-b", 1}}));
  EXPECT_EQ(fleet.by_driver, (std::map<std::string, int>{{"gpu.example.com", 4}}));
}

TEST(DeviceScopeNamesTest, ADeviceHealthNamesTheResultsOfItsDeviceOrPool) {
  std::vector<api::ResourceClaim::AllocationResult> results{Result("node-a", "gpu-1")};
  EXPECT_TRUE(DeviceScope::NamesAnyOf(Health("node-a", "gpu-1"), results));
  EXPECT_TRUE(DeviceScope::NamesAnyOf(Health("node-a"), results));
  EXPECT_FALSE(DeviceScope::NamesAnyOf(Health("node-a", "gpu-0"), results));
  EXPECT_FALSE(DeviceScope::NamesAnyOf(Health("node-b"), results));
  EXPECT_FALSE(DeviceScope::NamesAnyOf(Health("node-a"), {}));
  api::DeviceHealth other_driver = Health("node-a");
  other_driver.driver = "nic.example.com";
  EXPECT_FALSE(DeviceScope::NamesAnyOf(other_driver, results));
}

}  // namespace
}  // namespace dra::testing
