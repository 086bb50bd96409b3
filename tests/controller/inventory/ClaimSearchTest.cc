// ClaimSearch on hand-built candidates: the parts of the search that the
// Inventory-level tests (ClaimFeasibilityTest) cannot reach cheaply.
#include <gtest/gtest.h>

#include <deque>

#include "controller/inventory/ClaimSearch.h"

namespace dra::inventory {
namespace {

class ClaimSearchTest : public ::testing::Test {
 protected:
  // `n` plain devices in pool "p".
  std::vector<SearchDevice> Devices(int n) {
    std::vector<SearchDevice> out;
    for (int i = 0; i < n; ++i) {
      api::Device& device = storage_.emplace_back();
      device.name = "d" + std::to_string(i);
      SearchDevice d;
      d.key = "drv/p/" + device.name.str();
      d.pool_id = "drv/p";
      d.device = &device;
      out.push_back(d);
    }
    return out;
  }

  static SearchRequest Request(std::string name, int64_t count, std::vector<SearchDevice> devices,
                               bool all = false) {
    SearchRequest r;
    r.name = std::move(name);
    r.count = count;
    r.all = all;
    r.devices = std::move(devices);
    return r;
  }

  static ClaimSearch::Remaining NoCounters() {
    return [](const std::string&) -> const std::vector<api::CounterSet>* { return nullptr; };
  }

  std::deque<api::Device> storage_;  // stable addresses
};

// Two requests wanting 3 of the same 5 devices cannot both be served; the
// search tries every combination of the first before it says so, and a
// small step budget stops it early with limit_reached().
TEST_F(ClaimSearchTest, StepLimitStopsAnExhaustiveSearch) {
  auto devices = Devices(5);
  std::vector<SearchAlternatives> requests{{Request("a", 3, devices)}, {Request("b", 3, devices)}};
  ClaimSearch unbounded(requests, NoCounters());
  EXPECT_FALSE(unbounded.Solve());
  EXPECT_FALSE(unbounded.limit_reached());
  ClaimSearch bounded(requests, NoCounters(), 5);
  EXPECT_FALSE(bounded.Solve());
  EXPECT_TRUE(bounded.limit_reached());
  requests[1][0].count = 2;
  ClaimSearch fits(requests, NoCounters());
  EXPECT_TRUE(fits.Solve());
  EXPECT_EQ(fits.solution().size(), 5u);
}

// allocateOne: "At least one device is required for 'All' allocation mode",
// and a device a request took is released when a later one fails.
TEST_F(ClaimSearchTest, AllNeedsAtLeastOneDeviceAndReleasesOnFailure) {
  std::vector<SearchAlternatives> requests{{Request("a", 0, {}, true)}};
  EXPECT_FALSE(ClaimSearch(requests, NoCounters()).Solve());
  auto devices = Devices(2);
  requests = {{Request("a", 0, devices, true), Request("b", 1, devices)},
              {Request("c", 1, devices)}};
  ClaimSearch search(requests, NoCounters());
  ASSERT_TRUE(search.Solve());  // a (All) leaves nothing for c; b takes one
  EXPECT_EQ(search.solution(), (std::vector<std::pair<std::string, std::string>>{
                                   {"b", "drv/p/d0"}, {"c", "drv/p/d1"}}));
}

// A device already in use is skipped unless the request has adminAccess.
TEST_F(ClaimSearchTest, InUseDevicesOnlyForAdminAccess) {
  auto devices = Devices(1);
  devices[0].in_use = true;
  std::vector<SearchAlternatives> requests{{Request("a", 1, devices)}};
  EXPECT_FALSE(ClaimSearch(requests, NoCounters()).Solve());
  requests[0][0].admin_access = true;
  EXPECT_TRUE(ClaimSearch(requests, NoCounters()).Solve());
}

}  // namespace
}  // namespace dra::inventory
