#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "src/cache/ChangeSignal.h"

namespace kube {
namespace {

struct Thing {
  std::string watched;
  std::string ignored;
};

class ChangeSignalTest : public ::testing::Test {
 protected:
  std::shared_ptr<const Thing> Make(std::string watched, std::string ignored) {
    return std::make_shared<const Thing>(Thing{std::move(watched), std::move(ignored)});
  }

  std::shared_ptr<std::atomic<bool>> flag_ = std::make_shared<std::atomic<bool>>(false);
};

TEST_F(ChangeSignalTest, EveryEventRaisesTheFlagWithoutAFilter) {
  ChangeSignal<Thing> signal(flag_);
  signal.OnUpdate(Make("a", "1"), Make("a", "1"));
  EXPECT_TRUE(flag_->exchange(false));
  signal.OnAdd(Make("a", "1"));
  EXPECT_TRUE(flag_->exchange(false));
  signal.OnDelete(Make("a", "1"));
  EXPECT_TRUE(flag_->exchange(false));
}

TEST_F(ChangeSignalTest, AnUpdateOfWhatDoesNotMatterRaisesNothing) {
  ChangeSignal<Thing> signal(flag_,
                             [](const Thing& a, const Thing& b) { return a.watched != b.watched; });
  signal.OnUpdate(Make("a", "1"), Make("a", "2"));
  EXPECT_FALSE(flag_->load());
  signal.OnUpdate(Make("a", "2"), Make("b", "2"));
  EXPECT_TRUE(flag_->exchange(false));
  // Adds and deletes always matter.
  signal.OnAdd(Make("a", "1"));
  EXPECT_TRUE(flag_->exchange(false));
  signal.OnDelete(Make("a", "1"));
  EXPECT_TRUE(flag_->exchange(false));
}

}  // namespace
}  // namespace kube
