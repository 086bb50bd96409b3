#include <gtest/gtest.h>

#include <memory>

#include "controller/inventory/TaintSource.h"

namespace dra::inventory {
namespace {

TEST(TaintSourceTest, DescribesDriverAndRule) {
  api::DeviceTaint xid{"gpu.nvidia.com/xid", "48", api::TaintEffect::kNoExecute, "", 0};
  TaintSource driver;
  EXPECT_EQ(driver.Label(), "driver");
  EXPECT_EQ(TaintSource::TaintText(xid, driver), "gpu.nvidia.com/xid=48:NoExecute (driver)");

  auto rule = std::make_shared<api::DeviceTaintRule>();
  rule->meta.name = "devicehealth-node-a-gpu-0";
  TaintSource ruled{TaintSource::Kind::kRule, rule};
  EXPECT_EQ(ruled.Label(), "rule");
  EXPECT_EQ(ruled.RuleName(), "devicehealth-node-a-gpu-0");
  api::DeviceTaint bare{"example.com/broken", "", api::TaintEffect::kNoSchedule, "", 0};
  EXPECT_EQ(TaintSource::TaintText(bare, ruled),
            "example.com/broken:NoSchedule (rule devicehealth-node-a-gpu-0)");
}

}  // namespace
}  // namespace dra::inventory
