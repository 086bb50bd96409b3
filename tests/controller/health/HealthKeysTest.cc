#include <gtest/gtest.h>

#include "controller/health/HealthKeys.h"
#include "src/cache/Store.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::health {
namespace {

using nlohmann::json;

// A DeviceHealth naming its device by uuid or node + index instead of pool.
json LookedUp(const std::string& name, const json& target) {
  json health = Health(name, "", "", "Degraded");
  health["spec"].erase("pool");
  health["spec"].erase("driver");
  health["spec"].update(target);
  return health;
}

class HealthKeysTest : public ::testing::Test {
 protected:
  void Put(const json& health) { healths_.Upsert(ProjectJson<api::DeviceHealth>(health)); }

  std::vector<std::string> ForSlice(const std::string& pool, const std::string& driver = "") {
    auto slice = testing::Slice(pool + "-slice", pool, {testing::Gpu("gpu-0", 80, "m")});
    auto copy = std::make_shared<api::ResourceSlice>(*slice);
    if (!driver.empty()) copy->driver = driver;
    auto keys = HealthKeys::ForSlice(healths_, *copy);
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  kube::Store<api::DeviceHealth> healths_;
};

TEST_F(HealthKeysTest, ASliceReachesItsPoolsTargetsAndEveryLookedUpTargetOfItsDriver) {
  Put(Health("device-a", "node-a", "gpu-0", "Degraded"));
  Put(Health("pool-b", "node-b", "", "Degraded"));
  Put(LookedUp("by-uuid", {{"uuid", "GPU-1"}}));
  Put(LookedUp("by-index", {{"node", "node-c"}, {"index", 0}}));
  json other_driver = LookedUp("by-uuid-other-driver", {{"uuid", "GPU-2"}});
  other_driver["spec"]["driver"] = "other.example.com";
  Put(other_driver);

  // A device with the uuid or index may appear in, move to or leave any pool.
  EXPECT_EQ(ForSlice("node-a"), (std::vector<std::string>{"by-index", "by-uuid", "device-a"}));
  EXPECT_EQ(ForSlice("node-b"), (std::vector<std::string>{"by-index", "by-uuid", "pool-b"}));
  EXPECT_EQ(ForSlice("elsewhere"), (std::vector<std::string>{"by-index", "by-uuid"}));
  EXPECT_EQ(ForSlice("elsewhere", "other.example.com"),
            (std::vector<std::string>{"by-index", "by-uuid", "by-uuid-other-driver"}));
}

TEST_F(HealthKeysTest, AClaimReachesTheTaintedTargetsNamingADeviceItHolds) {
  json tainted = Health("tainted", "node-a", "gpu-1", "Degraded");
  tainted["status"] = {{"effect", "NoSchedule"}};
  Put(tainted);
  Put(Health("untainted", "node-a", "gpu-1", "Degraded"));
  json by_uuid = LookedUp("by-uuid", {{"uuid", "GPU-1"}});
  by_uuid["status"] = {{"effect", "NoSchedule"}, {"resolved", "gpu.example.com/node-a/gpu-1"}};
  Put(by_uuid);
  json elsewhere = Health("elsewhere", "node-a", "gpu-2", "Degraded");
  elsewhere["status"] = {{"effect", "NoSchedule"}};
  Put(elsewhere);

  auto claim = testing::Claim("ns", "c", {{"node-a", "gpu-1"}}, {"pod"});
  auto keys = HealthKeys::ForClaim(healths_, *claim);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"by-uuid", "tainted"}));
  EXPECT_TRUE(HealthKeys::ForClaim(healths_, *testing::Claim("ns", "free", {})).empty());
}

}  // namespace
}  // namespace dra::health
