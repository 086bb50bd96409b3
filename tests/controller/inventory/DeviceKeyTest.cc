#include <gtest/gtest.h>

#include "controller/inventory/DeviceKey.h"

namespace dra::testing {
namespace {

using inventory::DeviceKey;

TEST(DeviceKeyTest, RoundTripsThroughText) {
  DeviceKey key{"gpu.example.com", "node-a", "gpu-0"};
  EXPECT_EQ(key.ToString(), "gpu.example.com/node-a/gpu-0");
  auto parsed = DeviceKey::Parse(key.ToString());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, key);
}

TEST(DeviceKeyTest, PoolNamesMayContainSlashes) {
  auto parsed = DeviceKey::Parse("gpu.example.com/rack-1/row-2/gpu-3");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->driver, "gpu.example.com");
  EXPECT_EQ(parsed->pool, "rack-1/row-2");
  EXPECT_EQ(parsed->device, "gpu-3");
}

TEST(DeviceKeyTest, RejectsIncompleteKeysWithAClearMessage) {
  for (const char* text :
       {"", "gpu-0", "driver/gpu-0", "/pool/gpu", "driver/pool/", "driver//gpu"}) {
    auto parsed = DeviceKey::Parse(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find("<driver>/<pool>/<device>"), std::string::npos);
  }
}

TEST(DeviceKeyTest, OrdersByDriverThenPoolThenDevice) {
  EXPECT_LT((DeviceKey{"a", "p", "z"}), (DeviceKey{"b", "a", "a"}));
  EXPECT_LT((DeviceKey{"a", "p", "d0"}), (DeviceKey{"a", "p", "d1"}));
}

}  // namespace
}  // namespace dra::testing
