// Claim-level feasibility (Inventory::CheckClaim) against the rules of the
// v1.37.2 allocator (structured/internal/incubating/allocator_incubating.go),
// each case one rule, through the Inventory's public API.
#include <gtest/gtest.h>

#include "controller/inventory/Inventory.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::ClaimFit;
using inventory::Inventory;
using Mode = api::ResourceClaim::AllocationMode;
using ExactRequest = api::ResourceClaim::ExactRequest;

constexpr const char* kAnyGpu = R"(device.driver == "gpu.example.com")";

ExactRequest Want(const std::string& cls, int64_t count = 1) {
  ExactRequest r;
  r.device_class_name = cls;
  r.count = count;
  return r;
}

ExactRequest WantAll(const std::string& cls) {
  ExactRequest r = Want(cls);
  r.allocation_mode = Mode::kAll;
  return r;
}

ExactRequest Admin(ExactRequest r) {
  r.admin_access = true;
  return r;
}

ExactRequest Selecting(ExactRequest r, const std::string& expression) {
  r.selectors.push_back(expression);
  return r;
}

// A claim of `exactly` requests named r0, r1, ...
api::ResourceClaim ClaimWith(std::vector<ExactRequest> requests) {
  api::ResourceClaim claim;
  claim.meta.namespace_name = "default";
  claim.meta.name = "c";
  for (size_t i = 0; i < requests.size(); ++i) {
    api::ResourceClaim::Request request;
    request.name = "r" + std::to_string(i);
    request.exactly = std::move(requests[i]);
    claim.requests.push_back(std::move(request));
  }
  return claim;
}

// One request with firstAvailable subrequests s0, s1, ...
api::ResourceClaim::Request FirstAvailable(const std::string& name,
                                           std::vector<ExactRequest> subs) {
  api::ResourceClaim::Request request;
  request.name = name;
  for (size_t i = 0; i < subs.size(); ++i) {
    request.first_available.push_back({"s" + std::to_string(i), std::move(subs[i])});
  }
  return request;
}

std::string ModelIs(const std::string& model) {
  return R"(device.attributes["gpu.example.com"].model == ")" + model + "\"";
}

class ClaimFeasibilityTest : public ::testing::Test {
 protected:
  void SetUp() override { inventory_.ApplyClass(Class("gpu", {kAnyGpu})); }

  // node-a: counter set "gpu-0" of 80Gi, the whole GPU and two halves.
  void PublishMigGpu() {
    inventory_.ApplySlice(
        CounterSlice("mig-counters", "node-a", {Counters("gpu-0", {{"memory", 80LL << 30}})}));
    inventory_.ApplySlice(Slice("mig-devices", "node-a",
                                {Partition("full", "gpu-0", 80), Partition("half-0", "gpu-0", 40),
                                 Partition("half-1", "gpu-0", 40)},
                                1, 2));
  }

  ClaimFit Check(const api::ResourceClaim& claim, const std::string& node = "node-a") {
    return inventory_.CheckClaim(claim, node);
  }

  Inventory inventory_;
};

// allocateDevice marks a device taken for the claim (allocatingDevices):
// two requests of one claim never share it, though each alone fits.
TEST_F(ClaimFeasibilityTest, ADeviceServesOneRequestOfTheClaim) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m")}));
  EXPECT_TRUE(Check(ClaimWith({Want("gpu")})).fits);
  ClaimFit fit = Check(ClaimWith({Want("gpu"), Want("gpu")}));
  EXPECT_FALSE(fit.fits);
  EXPECT_FALSE(fit.aborts);
  EXPECT_NE(fit.reason.find("cannot be served together"), std::string::npos) << fit.reason;
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m"), Gpu("gpu-1", 80, "m")}));
  fit = Check(ClaimWith({Want("gpu"), Want("gpu")}));
  EXPECT_TRUE(fit.fits);
  EXPECT_EQ(fit.devices, (std::vector<std::string>{"r0 gpu.example.com/node-a/gpu-0",
                                                   "r1 gpu.example.com/node-a/gpu-1"}));
}

// allocateOne: an adminAccess request may take devices in use by other
// claims, but not one another request of its own claim took; and the device
// it took is taken for the claim's later requests too.
TEST_F(ClaimFeasibilityTest, AdminAccessSharesDevicesWithOtherClaimsButNotWithinItsOwn) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m")}));
  inventory_.ApplyClaim(ClaimOf("train", {Result("node-a", "gpu-0")}));
  EXPECT_FALSE(Check(ClaimWith({Want("gpu")})).fits);
  EXPECT_TRUE(Check(ClaimWith({Admin(Want("gpu"))})).fits);
  EXPECT_TRUE(Check(ClaimWith({Admin(WantAll("gpu"))})).fits);
  inventory_.RemoveClaim(*ClaimOf("train", {}));
  EXPECT_FALSE(Check(ClaimWith({Admin(WantAll("gpu")), Want("gpu")})).fits);
  EXPECT_FALSE(Check(ClaimWith({Want("gpu"), Admin(Want("gpu"))})).fits);
  EXPECT_TRUE(Check(ClaimWith({Admin(Want("gpu"))})).fits);
}

// DeviceSubRequest has no adminAccess in resource.k8s.io/v1: a subrequest
// that carries one (only a client-side object can) is an ordinary request.
TEST_F(ClaimFeasibilityTest, SubrequestsHaveNoAdminAccess) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m")}));
  inventory_.ApplyClaim(ClaimOf("train", {Result("node-a", "gpu-0")}));
  api::ResourceClaim claim = ClaimWith({});
  claim.requests.push_back(FirstAvailable("r0", {Admin(WantAll("gpu"))}));
  EXPECT_FALSE(Check(claim).fits);
  EXPECT_TRUE(Check(ClaimWith({Admin(WantAll("gpu"))})).fits);
}

// validateDeviceRequest: allocationMode All fails with an error when any
// incomplete pool reaches the node, whatever its driver or class; other
// requests just skip such pools.
TEST_F(ClaimFeasibilityTest, AllWithAnIncompletePoolInReachAborts) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m")}));
  auto nic = std::const_pointer_cast<api::ResourceSlice>(
      Slice("nic-0", "node-a", {Gpu("nic-0", 1, "nic")}, 1, 2, "node-a-nics"));
  nic->driver = "nic.example.com";
  inventory_.ApplySlice(nic);
  EXPECT_TRUE(Check(ClaimWith({Want("gpu")})).fits);
  ClaimFit fit = Check(ClaimWith({WantAll("gpu")}));
  EXPECT_FALSE(fit.fits);
  EXPECT_TRUE(fit.aborts);
  EXPECT_NE(fit.reason.find("nic.example.com/node-a-nics is currently being updated"),
            std::string::npos)
      << fit.reason;
  // Also as an unchosen firstAvailable alternative: every one is validated.
  api::ResourceClaim claim = ClaimWith({});
  claim.requests.push_back(FirstAvailable("r0", {Want("gpu"), WantAll("gpu")}));
  EXPECT_TRUE(Check(claim).aborts);
  // Not on a node the incomplete pool does not reach.
  inventory_.ApplySlice(Slice("b", "node-b", {Gpu("gpu-0", 80, "m")}));
  EXPECT_TRUE(Check(ClaimWith({WantAll("gpu")}), "node-b").fits);
}

// checkAvailableCounters over the devices taken together: All over a whole
// GPU and its halves needs 160Gi of an 80Gi counter set.
TEST_F(ClaimFeasibilityTest, DevicesTakenTogetherShareTheirCounters) {
  PublishMigGpu();
  EXPECT_EQ(inventory_.Count("gpu", "node-a").free, 3);
  EXPECT_FALSE(Check(ClaimWith({WantAll("gpu")})).fits);
  EXPECT_TRUE(Check(ClaimWith({Want("gpu", 2)})).fits);  // the two halves
  EXPECT_FALSE(Check(ClaimWith({Want("gpu", 3)})).fits);
  // With one half allocated, the other half fits and the whole GPU does not.
  inventory_.ApplyClaim(ClaimOf("half", {Result("node-a", "half-0")}));
  ClaimFit fit = Check(ClaimWith({Want("gpu")}));
  EXPECT_TRUE(fit.fits);
  EXPECT_EQ(fit.devices, std::vector<std::string>{"r0 gpu.example.com/node-a/half-1"});
  EXPECT_FALSE(Check(ClaimWith({Want("gpu", 2)})).fits);
}

// allocateOne backtracks: when a later request needs the device an earlier
// one took, the earlier one tries its other devices.
TEST_F(ClaimFeasibilityTest, SearchBacktracksOverEarlierRequests) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "big"), Gpu("gpu-1", 24, "small")}));
  ClaimFit fit = Check(ClaimWith({Want("gpu"), Selecting(Want("gpu"), ModelIs("big"))}));
  EXPECT_TRUE(fit.fits);
  EXPECT_EQ(fit.devices, (std::vector<std::string>{"r0 gpu.example.com/node-a/gpu-1",
                                                   "r1 gpu.example.com/node-a/gpu-0"}));
}

// firstAvailable: the first subrequest that leads to a whole solution wins.
TEST_F(ClaimFeasibilityTest, FirstAvailableFallsBackInOrder) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "big"), Gpu("gpu-1", 24, "small")}));
  api::ResourceClaim claim = ClaimWith({Selecting(Want("gpu"), ModelIs("small"))});
  claim.requests.push_back(FirstAvailable(
      "r1", {Selecting(Want("gpu"), ModelIs("small")), Selecting(Want("gpu"), ModelIs("big"))}));
  ClaimFit fit = Check(claim);
  EXPECT_TRUE(fit.fits);
  EXPECT_EQ(fit.devices, (std::vector<std::string>{"r0 gpu.example.com/node-a/gpu-1",
                                                   "r1/s1 gpu.example.com/node-a/gpu-0"}));
  claim.requests[1].first_available.pop_back();
  fit = Check(claim);
  EXPECT_FALSE(fit.fits);
  EXPECT_NE(fit.reason.find("cannot be served together"), std::string::npos) << fit.reason;
}

// CmpRequestOverCapacity with the claim's own shares (allocatingCapacity):
// shares of one allowMultipleAllocations device taken by two requests of the
// claim must fit together, with the existing shares.
TEST_F(ClaimFeasibilityTest, SharesOfOneClaimFitTheCapacityTogether) {
  api::Device shared = Gpu("gpu-0", 40, "m");
  shared.allow_multiple_allocations = true;
  api::CapacityPolicy policy;
  policy.default_value = kube::Quantity::FromInt64(10LL << 30);
  policy.min = kube::Quantity::FromInt64(10LL << 30);
  shared.capacity_policies.emplace_back("memory", policy);
  inventory_.ApplySlice(Slice("a", "node-a", {shared}));
  auto asking = [](int64_t gi) {
    ExactRequest r = Want("gpu");
    r.capacity_requests.emplace_back("memory", kube::Quantity::FromInt64(gi << 30));
    return r;
  };
  EXPECT_TRUE(Check(ClaimWith({asking(20), asking(20)})).fits);
  EXPECT_FALSE(Check(ClaimWith({asking(20), asking(30)})).fits);
  auto share = Result("node-a", "gpu-0", false, "s-1");
  share.consumed_capacity.emplace_back("memory", kube::Quantity::FromInt64(10LL << 30));
  inventory_.ApplyClaim(ClaimOf("other", {share}));
  EXPECT_TRUE(Check(ClaimWith({asking(20), Want("gpu")})).fits);
  EXPECT_FALSE(Check(ClaimWith({asking(20), asking(20)})).fits);
}

// allocateDevice: for All every matching device must be usable, tainted or
// in use ones included.
TEST_F(ClaimFeasibilityTest, AllNeedsEveryMatchingDevice) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m"), Gpu("gpu-1", 80, "m")}));
  EXPECT_TRUE(Check(ClaimWith({WantAll("gpu")})).fits);
  inventory_.ApplyTaintRule(TaintRule("bad", "node-a", "gpu-1", api::TaintEffect::kNoSchedule));
  EXPECT_FALSE(Check(ClaimWith({WantAll("gpu")})).fits);
  ExactRequest tolerant = WantAll("gpu");
  api::DeviceToleration toleration;
  toleration.key = "dra-controller.dev/unhealthy";
  toleration.op = api::DeviceToleration::Operator::kExists;
  tolerant.tolerations.push_back(toleration);
  EXPECT_TRUE(Check(ClaimWith({tolerant})).fits);
  inventory_.ApplyClaim(ClaimOf("train", {Result("node-a", "gpu-0")}));
  EXPECT_FALSE(Check(ClaimWith({tolerant})).fits);
  EXPECT_FALSE(Check(ClaimWith({Want("gpu")}), "node-b").fits);
}

// Errors abort (the scheduler gives up on the Pod), a missing class does
// not fit, and more than AllocationResultsMaxSize devices abort.
TEST_F(ClaimFeasibilityTest, ErrorsAbortAndMissingClassesDoNotFit) {
  inventory_.ApplySlice(Slice("a", "node-a", {Gpu("gpu-0", 80, "m")}));
  ClaimFit fit = Check(ClaimWith({Want("nope")}));
  EXPECT_FALSE(fit.fits);
  EXPECT_FALSE(fit.aborts);
  EXPECT_NE(fit.reason.find("device class nope does not exist"), std::string::npos);
  fit = Check(ClaimWith({Selecting(Want("gpu"), R"(device.attributes["x"].y == 1)")}));
  EXPECT_TRUE(fit.aborts);
  EXPECT_NE(fit.reason.find("on device gpu.example.com/node-a/gpu-0"), std::string::npos)
      << fit.reason;
  fit = Check(ClaimWith({Want("gpu", 33)}));
  EXPECT_TRUE(fit.aborts);
  ExactRequest unknown = Want("gpu");
  unknown.invalid_reason = "allocationMode: unknown mode \"Foo\"";
  EXPECT_TRUE(Check(ClaimWith({unknown})).aborts);
}

}  // namespace
}  // namespace dra::testing
