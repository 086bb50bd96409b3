#include <gtest/gtest.h>

#include "controller/kubelet/ReportVerifier.h"
#include "tests/controller/inventory/InventoryFixtures.h"
#include "tests/controller/kubelet/KubeletTestPods.h"

namespace dra::kubelet {
namespace {

using Health = api::PodView::ReportedHealth;

class ReportVerifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<api::Device> gpus{dra::testing::Gpu("gpu-0", 80, "m"),
                                  dra::testing::Gpu("gpu-1", 80, "m")};
    inventory_.ApplySlice(dra::testing::Slice("node-a-slice", "node-a", gpus));
    inventory_.ApplySlice(dra::testing::Slice("node-b-slice", "node-b", gpus));
    // "train" holds node-a's gpu-0; "remote" holds node-b's gpu-0 but runs on node-a.
    inventory_.ApplyClaim(dra::testing::Claim("ml", "train", {{"node-a", "gpu-0"}}, {"train"}));
    inventory_.ApplyClaim(dra::testing::Claim("ml", "remote", {{"node-b", "gpu-0"}}, {"remote"}));
  }

  ReportTrust Check(const std::string& pod, const std::string& pool) {
    auto view =
        testing::PodReporting(pod, {{"gpu.example.com/" + pool + "/gpu-0", Health::kUnhealthy}});
    return ReportVerifier(inventory_).Check(*view, {"gpu.example.com", pool, "gpu-0"});
  }

  inventory::Inventory inventory_;
};

TEST_F(ReportVerifierTest, TheHolderOnTheDevicesNodeIsBelieved) {
  EXPECT_EQ(Check("train", "node-a"), ReportTrust::kTrusted);
}

TEST_F(ReportVerifierTest, APodWhoseClaimsDoNotHoldTheDeviceIsNot) {
  EXPECT_EQ(Check("intruder", "node-a"), ReportTrust::kNotAllocated);
  EXPECT_EQ(Check("train", "node-b"), ReportTrust::kNotAllocated) << "another node's GPU";
}

// The claim holds node-b's device, but the Pod says it runs on node-a
// (KubeletTestPods puts every Pod there): a node-local device is reported
// only from its own node.
TEST_F(ReportVerifierTest, AHolderOnAnotherNodeIsNot) {
  EXPECT_EQ(Check("remote", "node-b"), ReportTrust::kOtherNode);
  EXPECT_STREQ(ReportTrustName(ReportTrust::kOtherNode), "other_node");
}

}  // namespace
}  // namespace dra::kubelet
