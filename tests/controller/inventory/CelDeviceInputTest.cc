#include <gtest/gtest.h>

#include "controller/cel/Program.h"
#include "controller/inventory/CelDeviceInput.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

bool Eval(const std::string& expression, const cel::Device& device) {
  auto program = cel::Program::Compile(expression);
  EXPECT_TRUE(program.ok()) << program.status().ToString();
  auto result = (*program)->Evaluate(device);
  EXPECT_TRUE(result.ok()) << expression << ": " << result.status().ToString();
  return result.ok() && *result;
}

TEST(CelDeviceInputTest, UnqualifiedNamesTakeTheDriverDomain) {
  api::Device device = Gpu("gpu-0", 80, "gpu-80g");
  device.attributes.emplace_back("vendor.example.com/family",
                                 api::AttributeValue(std::string("h")));
  device.capacity.emplace_back("vendor.example.com/slots", kube::Quantity::FromInt64(7));
  cel::Device input = inventory::ToCelDevice(device, "gpu.example.com");
  EXPECT_EQ(input.driver, "gpu.example.com");
  EXPECT_TRUE(Eval(R"(device.attributes["gpu.example.com"].model == "gpu-80g")", input));
  EXPECT_TRUE(Eval(R"(device.attributes["vendor.example.com"].family == "h")", input));
  EXPECT_TRUE(Eval(R"(device.capacity["vendor.example.com"].slots == quantity("7"))", input));
  EXPECT_TRUE(
      Eval(R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) == 0)", input));
  EXPECT_TRUE(Eval(R"(device.attributes["gpu.example.com"].driverVersion.major() == 1)", input));
  EXPECT_FALSE(Eval(R"("family" in device.attributes["gpu.example.com"])", input));
}

TEST(CelDeviceInputTest, UnparsableVersionIsLeftOut) {
  api::Device device;
  device.name = "d";
  device.attributes.emplace_back("fw", api::AttributeValue(api::VersionString{"not-a-version"}));
  device.allow_multiple_allocations = true;
  cel::Device input = inventory::ToCelDevice(device, "gpu.example.com");
  EXPECT_FALSE(Eval(R"(has(device.attributes["gpu.example.com"].fw))", input));
  EXPECT_TRUE(Eval("device.allowMultipleAllocations", input));
}

}  // namespace
}  // namespace dra::testing
