#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "src/cache/ListMemoryBudget.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using namespace std::chrono_literals;

TEST(ListMemoryBudgetTest, HoldsAtMostWhatFits) {
  ListMemoryBudget budget(300, 100);
  std::vector<ListMemoryBudget::Reservation> held;
  for (int i = 0; i < 3; ++i) held.push_back(budget.Acquire(nullptr));
  EXPECT_EQ(budget.in_use_bytes(), 300u);
  std::atomic<bool> fourth{false};
  std::thread waiter([&] {
    auto reservation = budget.Acquire(nullptr, 10ms);
    fourth = reservation.held();
  });
  std::this_thread::sleep_for(100ms);  // the fourth must still wait: proves the negative
  EXPECT_FALSE(fourth);
  held.pop_back();
  ASSERT_TRUE(dra::testing::WaitFor("the fourth page", 5s, [&] { return fourth.load(); }).ok());
  waiter.join();
  EXPECT_EQ(budget.peak_bytes(), 300u);
  held.clear();
  EXPECT_EQ(budget.in_use_bytes(), 0u);
}

TEST(ListMemoryBudgetTest, OnePageFitsHoweverSmallTheBudget) {
  ListMemoryBudget budget(10, 100);
  auto reservation = budget.Acquire(nullptr);
  EXPECT_TRUE(reservation.held());
  EXPECT_EQ(budget.in_use_bytes(), 100u);
}

TEST(ListMemoryBudgetTest, AWaiterGivesUpWhenStopping) {
  ListMemoryBudget budget(100, 100);
  auto held = budget.Acquire(nullptr);
  std::atomic<bool> stopping{false};
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    auto reservation = budget.Acquire([&] { return stopping.load(); }, 10ms);
    EXPECT_FALSE(reservation.held());
    returned = true;
  });
  stopping = true;
  ASSERT_TRUE(
      dra::testing::WaitFor("the waiter to give up", 5s, [&] { return returned.load(); }).ok());
  waiter.join();
  EXPECT_EQ(budget.in_use_bytes(), 100u);
}

}  // namespace
}  // namespace kube
