#include <gtest/gtest.h>

#include "controller/inventory/CounterLedger.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::CounterLedger;

constexpr int64_t kGi = int64_t{1} << 30;

// allocator_*.go (checkAvailableCounters): the pool's counters minus what the
// allocated devices consume must still cover the device, for every counter
// of the pool.
TEST(CounterLedgerTest, ADeviceFitsWhileItsCountersRemain) {
  CounterLedger ledger;
  std::vector<api::CounterSet> sets = {Counters("gpu-0", {{"memory", 80 * kGi}})};
  api::Device whole = Partition("gpu-0", "gpu-0", 80);
  api::Device half = Partition("half-0", "gpu-0", 40);
  api::Device other = Partition("half-1", "gpu-0", 40);
  ledger.Recompute("p", sets, {});
  EXPECT_TRUE(ledger.Covers("p", whole));
  ledger.Recompute("p", sets, {&half});
  EXPECT_FALSE(ledger.Covers("p", whole));
  EXPECT_TRUE(ledger.Covers("p", other));
  ledger.Recompute("p", sets, {&half, &other});
  EXPECT_FALSE(ledger.Covers("p", other));
  EXPECT_EQ(ledger.Remaining("p")->at(0).counters[0].second, kube::Quantity());
  api::Device plain = Gpu("plain", 80, "x");
  EXPECT_TRUE(ledger.Covers("p", plain));  // consumes nothing
}

TEST(CounterLedgerTest, AnOverdrawnCounterBlocksEveryConsumingDevice) {
  CounterLedger ledger;
  std::vector<api::CounterSet> sets = {Counters("a", {{"memory", 10 * kGi}}),
                                       Counters("b", {{"memory", 10 * kGi}})};
  api::Device big = Partition("big", "a", 20);  // allocated beyond what `a` has
  api::Device small = Partition("small", "b", 1);
  ledger.Recompute("p", sets, {&big});
  EXPECT_FALSE(ledger.Covers("p", small));
  ledger.Recompute("p", {}, {});
  EXPECT_EQ(ledger.Remaining("p"), nullptr);
  EXPECT_TRUE(ledger.Covers("p", small));
}

}  // namespace
}  // namespace dra::testing
