#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/base/FakeClock.h"
#include "src/queue/ItemExponentialFailureRateLimiter.h"
#include "src/queue/WorkQueue.h"
#include "tests/src/queue/QueueTestHelpers.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::Eventually;

class WorkQueueTest : public ::testing::Test {
 protected:
  WorkQueue::Options MakeOptions() {
    WorkQueue::Options options;
    options.clock = clock_;
    options.rate_limiter =
        std::make_unique<ItemExponentialFailureRateLimiter>(milliseconds(5), seconds(1000));
    return options;
  }

  // Waits (bounded) until the background thread has moved `n` keys to ready.
  bool ReadyCountBecomes(std::size_t n) {
    return Eventually([&] { return queue_.Len() == n; });
  }

  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  WorkQueue queue_{MakeOptions()};
};

TEST_F(WorkQueueTest, QueuesAKeyOnceHoweverOftenAdded) {
  queue_.Add("a");
  queue_.Add("b");
  queue_.Add("a");
  queue_.Add("a");
  EXPECT_EQ(queue_.Len(), 2u);
  EXPECT_EQ(queue_.Get(), "a");
  EXPECT_EQ(queue_.Get(), "b");
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, ReAddDuringProcessingIsDeliveredOnceAfterDone) {
  queue_.Add("a");
  ASSERT_EQ(queue_.Get(), "a");
  queue_.Add("a");
  queue_.Add("a");
  EXPECT_EQ(queue_.Len(), 0u) << "an in-flight key must not be handed out again";

  queue_.Done("a");
  EXPECT_EQ(queue_.Len(), 1u);
  ASSERT_EQ(queue_.Get(), "a");
  queue_.Done("a");
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, DoneWithoutReAddDoesNotRequeue) {
  queue_.Add("a");
  ASSERT_EQ(queue_.Get(), "a");
  queue_.Done("a");
  queue_.Done("a");  // a second Done is harmless
  queue_.Done("never-added");
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, GetBlocksUntilAKeyIsAdded) {
  auto getter = std::async(std::launch::async, [&] { return queue_.Get(); });
  queue_.Add("late");
  ASSERT_EQ(getter.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_EQ(getter.get(), "late");
}

TEST_F(WorkQueueTest, AddAfterDeliversEarliestDeadlineFirst) {
  queue_.AddAfter("c", seconds(3));
  queue_.AddAfter("a", seconds(1));
  queue_.AddAfter("b", seconds(2));
  EXPECT_EQ(queue_.NumDelayed(), 3u);
  EXPECT_EQ(queue_.Len(), 0u);

  clock_->Step(seconds(1));
  ASSERT_TRUE(ReadyCountBecomes(1));
  EXPECT_EQ(queue_.NumDelayed(), 2u);
  EXPECT_EQ(queue_.Get(), "a");

  clock_->Step(seconds(2));
  ASSERT_TRUE(ReadyCountBecomes(2));
  EXPECT_EQ(queue_.Get(), "b");
  EXPECT_EQ(queue_.Get(), "c");
  EXPECT_EQ(queue_.NumDelayed(), 0u);
}

TEST_F(WorkQueueTest, AddAfterIsNotReadyBeforeItsDeadline) {
  queue_.AddAfter("a", seconds(10));
  clock_->Step(seconds(9));
  // Fake time has not reached the deadline, so no thread timing can make it ready.
  EXPECT_EQ(queue_.Len(), 0u);
  EXPECT_EQ(queue_.NumDelayed(), 1u);
  clock_->Step(seconds(1));
  ASSERT_TRUE(ReadyCountBecomes(1));
}

TEST_F(WorkQueueTest, ShorterReAddWins) {
  queue_.AddAfter("a", seconds(10));
  queue_.AddAfter("a", seconds(1));
  EXPECT_EQ(queue_.NumDelayed(), 1u);
  clock_->Step(seconds(1));
  ASSERT_TRUE(ReadyCountBecomes(1));
  EXPECT_EQ(queue_.Get(), "a");
  EXPECT_EQ(queue_.NumDelayed(), 0u);
}

TEST_F(WorkQueueTest, LongerReAddDoesNotPostpone) {
  queue_.AddAfter("a", seconds(1));
  queue_.AddAfter("a", seconds(10));
  EXPECT_EQ(queue_.NumDelayed(), 1u);
  clock_->Step(seconds(1));
  ASSERT_TRUE(ReadyCountBecomes(1));
  EXPECT_EQ(queue_.NumDelayed(), 0u);
}

TEST_F(WorkQueueTest, DelayedKeyAlreadyQueuedIsNotDuplicated) {
  queue_.Add("a");
  queue_.AddAfter("a", seconds(1));
  clock_->Step(seconds(1));
  ASSERT_TRUE(Eventually([&] { return queue_.NumDelayed() == 0; }));
  EXPECT_EQ(queue_.Len(), 1u);
}

TEST_F(WorkQueueTest, NonPositiveDelayAddsAtOnce) {
  queue_.AddAfter("a", Clock::Duration::zero());
  queue_.AddAfter("b", -seconds(1));
  EXPECT_EQ(queue_.Len(), 2u);
  EXPECT_EQ(queue_.NumDelayed(), 0u);
}

TEST_F(WorkQueueTest, HugeDelaySaturatesInsteadOfOverflowing) {
  clock_->Step(seconds(1));
  queue_.AddAfter("a", Clock::Duration::max());
  clock_->Step(std::chrono::hours(24 * 365));
  EXPECT_EQ(queue_.Len(), 0u);
  EXPECT_EQ(queue_.NumDelayed(), 1u);
}

TEST_F(WorkQueueTest, AddRateLimitedBacksOffUntilForgotten) {
  queue_.AddRateLimited("a");
  EXPECT_EQ(queue_.NumRequeues("a"), 1);
  clock_->Step(milliseconds(4));
  EXPECT_EQ(queue_.Len(), 0u);
  clock_->Step(milliseconds(1));
  ASSERT_TRUE(ReadyCountBecomes(1));
  ASSERT_EQ(queue_.Get(), "a");
  queue_.Done("a");

  queue_.AddRateLimited("a");  // second failure: 10 ms
  EXPECT_EQ(queue_.NumRequeues("a"), 2);
  clock_->Step(milliseconds(9));
  EXPECT_EQ(queue_.Len(), 0u);
  clock_->Step(milliseconds(1));
  ASSERT_TRUE(ReadyCountBecomes(1));

  queue_.Forget("a");
  EXPECT_EQ(queue_.NumRequeues("a"), 0);
}

TEST_F(WorkQueueTest, ShutDownUnblocksEveryGet) {
  std::vector<std::future<std::optional<std::string>>> getters;
  for (int i = 0; i < 3; ++i) {
    getters.push_back(std::async(std::launch::async, [&] { return queue_.Get(); }));
  }
  queue_.ShutDown();
  for (auto& getter : getters) {
    ASSERT_EQ(getter.wait_for(seconds(10)), std::future_status::ready);
    EXPECT_EQ(getter.get(), std::nullopt);
  }
  EXPECT_TRUE(queue_.ShuttingDown());
}

TEST_F(WorkQueueTest, ShutDownStopsAtOnceAndIgnoresAdds) {
  queue_.Add("pending");
  queue_.AddAfter("delayed", seconds(1));
  queue_.ShutDown();
  EXPECT_EQ(queue_.Get(), std::nullopt);
  queue_.Add("late");
  queue_.AddRateLimited("late");
  EXPECT_EQ(queue_.Len(), 0u);
  EXPECT_EQ(queue_.NumDelayed(), 0u);
  EXPECT_EQ(queue_.NumRequeues("late"), 0) << "no backoff recorded after shutdown";
  queue_.ShutDown();  // idempotent
}

TEST_F(WorkQueueTest, ShutDownWithDrainWaitsForInFlightDone) {
  queue_.Add("a");
  ASSERT_EQ(queue_.Get(), "a");
  auto drain = std::async(std::launch::async, [&] { queue_.ShutDownWithDrain(); });
  ASSERT_TRUE(Eventually([&] { return queue_.ShuttingDown(); }));
  // Cannot fail spuriously: a correct drain never returns before Done().
  EXPECT_EQ(drain.wait_for(milliseconds(20)), std::future_status::timeout);

  queue_.Add("b");
  EXPECT_EQ(queue_.Len(), 0u) << "adds are ignored while draining";
  queue_.Done("a");
  ASSERT_EQ(drain.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST_F(WorkQueueTest, ShutDownWithDrainReturnsAtOnceWhenIdle) {
  queue_.Add("pending");  // queued but not in flight: dropped, not waited for
  auto drain = std::async(std::launch::async, [&] { queue_.ShutDownWithDrain(); });
  EXPECT_EQ(drain.wait_for(seconds(10)), std::future_status::ready);
}

TEST_F(WorkQueueTest, ShutDownEndsADrainWait) {
  queue_.Add("stuck");
  ASSERT_EQ(queue_.Get(), "stuck");
  auto drain = std::async(std::launch::async, [&] { queue_.ShutDownWithDrain(); });
  ASSERT_TRUE(Eventually([&] { return queue_.ShuttingDown(); }));
  queue_.ShutDown();
  EXPECT_EQ(drain.wait_for(seconds(10)), std::future_status::ready);
}

TEST_F(WorkQueueTest, KeyReAddedWhileDrainingIsNotRequeued) {
  queue_.Add("a");
  ASSERT_EQ(queue_.Get(), "a");
  queue_.Add("a");  // dirty before shutdown
  auto drain = std::async(std::launch::async, [&] { queue_.ShutDownWithDrain(); });
  ASSERT_TRUE(Eventually([&] { return queue_.ShuttingDown(); }));
  queue_.Done("a");
  ASSERT_EQ(drain.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_EQ(queue_.Len(), 0u);
}

// Many workers and producers hammer a few keys; a per-key in-flight counter
// catches any moment where two workers hold the same key.
TEST(WorkQueueConcurrencyTest, SameKeyIsNeverProcessedConcurrently) {
  constexpr int kKeys = 4;
  constexpr int kWorkers = 8;
  constexpr int kProducers = 4;
  constexpr int kAddsPerProducer = 5000;
  WorkQueue queue(WorkQueue::Options{});
  std::array<std::atomic<int>, kKeys> in_flight{};
  std::array<std::atomic<int>, kKeys> processed{};
  std::atomic<int> overlaps{0};

  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&] {
      while (std::optional<std::string> key = queue.Get()) {
        const int index = std::stoi(*key);
        if (in_flight[index].fetch_add(1) != 0) ++overlaps;
        std::this_thread::yield();
        in_flight[index].fetch_sub(1);
        ++processed[index];
        queue.Done(*key);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kAddsPerProducer; ++i) queue.Add(std::to_string((i + p) % kKeys));
    });
  }
  for (std::thread& producer : producers) producer.join();
  for (int k = 0; k < kKeys; ++k) {
    EXPECT_TRUE(Eventually([&] { return processed[k] > 0; })) << "key " << k;
  }
  queue.ShutDown();
  for (std::thread& worker : workers) worker.join();
  EXPECT_EQ(overlaps, 0);
}

}  // namespace
}  // namespace kube
