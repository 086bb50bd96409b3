#include <gtest/gtest.h>

#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryFeed.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::inventory {
namespace {

// What an observer saw: the slice it was told of, and whether the Inventory
// had gpu-0 in that slice's pool at that moment.
struct Seen {
  std::string pool;
  bool published = false;
};

class InventoryFeedTest : public ::testing::Test {
 protected:
  InventoryFeedTest() {
    observers_->Add([this](const api::ResourceSlice& s) {
      seen_.push_back({s.pool.name, inventory_.Find({s.driver, s.pool.name, "gpu-0"}).has_value()});
    });
  }

  Inventory inventory_;
  std::shared_ptr<ChangeObservers<api::ResourceSlice>> observers_ =
      std::make_shared<ChangeObservers<api::ResourceSlice>>();
  InventoryFeed<api::ResourceSlice> feed_{
      [this](auto s) { inventory_.ApplySlice(std::move(s)); },
      [this](const api::ResourceSlice& s) { inventory_.RemoveSlice(s); }, observers_};
  std::vector<Seen> seen_;
};

TEST_F(InventoryFeedTest, ObserversAreToldOnceTheInventoryHasTheSlice) {
  auto slice = testing::Slice("s", "node-a", {testing::Gpu("gpu-0", 80, "m")});
  feed_.OnAdd(slice);
  ASSERT_EQ(seen_.size(), 1u);
  EXPECT_EQ(seen_[0].pool, "node-a");
  EXPECT_TRUE(seen_[0].published);
}

// An update that moves the slice to another pool tells of both: the old pool
// already without the device, the new one with it.
TEST_F(InventoryFeedTest, AnUpdateTellsOfTheOldAndTheNewSliceAfterApplyingIt) {
  auto before = testing::Slice("s", "node-a", {testing::Gpu("gpu-0", 80, "m")});
  auto after = testing::Slice("s", "node-a", {testing::Gpu("gpu-0", 80, "m")}, 1, 1, "renamed");
  feed_.OnAdd(before);
  seen_.clear();
  feed_.OnUpdate(before, after);
  ASSERT_EQ(seen_.size(), 2u);
  EXPECT_EQ(seen_[0].pool, "node-a");
  EXPECT_FALSE(seen_[0].published);
  EXPECT_EQ(seen_[1].pool, "renamed");
  EXPECT_TRUE(seen_[1].published);
}

TEST_F(InventoryFeedTest, ADeleteTellsOfTheSliceOnceItsDevicesAreGone) {
  auto slice = testing::Slice("s", "node-a", {testing::Gpu("gpu-0", 80, "m")});
  feed_.OnAdd(slice);
  seen_.clear();
  feed_.OnDelete(slice);
  ASSERT_EQ(seen_.size(), 1u);
  EXPECT_FALSE(seen_[0].published);
}

}  // namespace
}  // namespace dra::inventory
