#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "src/base/FakeClock.h"
#include "src/queue/ControllerLoop.h"
#include "src/queue/ItemExponentialFailureRateLimiter.h"
#include "tests/src/queue/QueueTestHelpers.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::CounterValue;
using testing::Eventually;
using testing::GaugeValue;

// Plays back scripted steps, one per Reconcile call (any key), then reports
// Done. A step may block or throw.
class ScriptedReconciler : public Reconciler {
 public:
  using Step = std::function<ReconcileResult()>;

  void Script(std::vector<Step> steps) {
    std::lock_guard<std::mutex> guard(mutex_);
    steps_.insert(steps_.end(), steps.begin(), steps.end());
  }

  ReconcileResult Reconcile(const std::string& key) override {
    Step step = [] { return ReconcileResult::Done(); };
    {
      std::lock_guard<std::mutex> guard(mutex_);
      ++calls_[key];
      if (!steps_.empty()) {
        step = steps_.front();
        steps_.pop_front();
      }
    }
    return step();
  }

  int Calls(const std::string& key) const {
    std::lock_guard<std::mutex> guard(mutex_);
    auto it = calls_.find(key);
    return it == calls_.end() ? 0 : it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::deque<Step> steps_;
  std::map<std::string, int> calls_;
};

// Keys are "0".."5"; counts moments where two workers hold the same key.
class OverlapCheckingReconciler : public Reconciler {
 public:
  static constexpr int kKeys = 6;

  ReconcileResult Reconcile(const std::string& key) override {
    const int index = std::stoi(key);
    if (in_flight[index].fetch_add(1) != 0) ++overlaps;
    std::this_thread::yield();
    in_flight[index].fetch_sub(1);
    ++reconciled[index];
    return ReconcileResult::Done();
  }

  std::array<std::atomic<int>, kKeys> in_flight{};
  std::array<std::atomic<int>, kKeys> reconciled{};
  std::atomic<int> overlaps{0};
};

ScriptedReconciler::Step Returns(ReconcileResult result) {
  return [result] { return result; };
}

class ControllerLoopTest : public ::testing::Test {
 protected:
  ControllerLoopTest() {
    WorkQueue::Options options;
    options.clock = clock_;
    options.rate_limiter =
        std::make_unique<ItemExponentialFailureRateLimiter>(milliseconds(5), seconds(1000));
    queue_ = std::make_shared<WorkQueue>(std::move(options));
  }

  std::unique_ptr<ControllerLoop> StartLoop(int workers = 1) {
    auto loop = ControllerLoop::Create({.name = "test", .workers = workers, .registry = registry_},
                                       queue_, reconciler_);
    EXPECT_TRUE(loop.ok()) << loop.status().ToString();
    if (!loop.ok()) return nullptr;
    EXPECT_TRUE((*loop)->Start().ok());
    return std::move(loop).value();
  }

  double Total(const std::string& result) {
    return CounterValue(*registry_, "controller_runtime_reconcile_total",
                        {{"controller", "test"}, {"result", result}});
  }
  double Counter(const std::string& family) {
    return CounterValue(*registry_, family, {{"controller", "test"}});
  }
  double Gauge(const std::string& family) {
    return GaugeValue(*registry_, family, {{"controller", "test"}});
  }

  // The reconcile for `key` has run `calls` times and its follow-up add is
  // waiting for its delay.
  bool WaitsAfterCall(const std::string& key, int calls) {
    return Eventually(
        [&] { return reconciler_->Calls(key) == calls && queue_->NumDelayed() == 1; });
  }

  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::shared_ptr<WorkQueue> queue_;
  std::shared_ptr<ScriptedReconciler> reconciler_ = std::make_shared<ScriptedReconciler>();
};

TEST_F(ControllerLoopTest, SuccessIsCountedOnce) {
  auto loop = StartLoop(3);
  queue_->Add("a");
  ASSERT_TRUE(Eventually([&] { return Total("success") == 1; }));
  EXPECT_EQ(reconciler_->Calls("a"), 1);
  EXPECT_EQ(Total("error"), 0);
  EXPECT_EQ(Total("requeue"), 0);
  EXPECT_EQ(Total("requeue_after"), 0);
  EXPECT_EQ(Counter("controller_runtime_reconcile_errors_total"), 0);
  EXPECT_EQ(Gauge("controller_runtime_active_workers"), 0);
  EXPECT_EQ(Gauge("controller_runtime_max_concurrent_reconciles"), 3);
  auto time = testing::HistogramValue(*registry_, "controller_runtime_reconcile_time_seconds",
                                      {{"controller", "test"}});
  ASSERT_TRUE(time.has_value());
  EXPECT_EQ(time->sample_count, 1u);
}

TEST_F(ControllerLoopTest, ErrorIsRetriedWithBackoffAndCounted) {
  reconciler_->Script({Returns(ReconcileResult::Error(Status(StatusCode::kConflict, "stale"))),
                       Returns(ReconcileResult::Error(Status(StatusCode::kConflict, "stale")))});
  auto loop = StartLoop();
  queue_->Add("a");

  ASSERT_TRUE(WaitsAfterCall("a", 1));
  EXPECT_EQ(queue_->NumRequeues("a"), 1);
  clock_->Step(milliseconds(4));
  EXPECT_EQ(queue_->Len(), 0u) << "first retry waits 5 ms";
  clock_->Step(milliseconds(1));

  ASSERT_TRUE(WaitsAfterCall("a", 2));
  EXPECT_EQ(queue_->NumRequeues("a"), 2);
  clock_->Step(milliseconds(9));
  EXPECT_EQ(queue_->Len(), 0u) << "second retry waits 10 ms";
  clock_->Step(milliseconds(1));

  ASSERT_TRUE(Eventually([&] { return Total("success") == 1; }));
  EXPECT_EQ(reconciler_->Calls("a"), 3);
  EXPECT_EQ(queue_->NumRequeues("a"), 0) << "success forgets the failures";
  EXPECT_EQ(Total("error"), 2);
  EXPECT_EQ(Counter("controller_runtime_reconcile_errors_total"), 2);
  EXPECT_EQ(Counter("controller_runtime_reconcile_panics_total"), 0);
}

TEST_F(ControllerLoopTest, ExceptionIsCaughtCountedAndRetried) {
  reconciler_->Script({[]() -> ReconcileResult { throw std::runtime_error("boom"); },
                       []() -> ReconcileResult { throw 42; }});
  auto loop = StartLoop();
  queue_->Add("a");

  ASSERT_TRUE(WaitsAfterCall("a", 1));
  clock_->Step(milliseconds(5));
  ASSERT_TRUE(WaitsAfterCall("a", 2));
  clock_->Step(milliseconds(10));

  ASSERT_TRUE(Eventually([&] { return Total("success") == 1; }));
  EXPECT_EQ(Total("error"), 2);
  EXPECT_EQ(Counter("controller_runtime_reconcile_errors_total"), 2);
  EXPECT_EQ(Counter("controller_runtime_reconcile_panics_total"), 2);
  EXPECT_EQ(Gauge("controller_runtime_active_workers"), 0);
}

TEST_F(ControllerLoopTest, RequeueAfterIsHonouredAndForgetsFailures) {
  reconciler_->Script({Returns(ReconcileResult::Error(Status(StatusCode::kUnavailable, "down"))),
                       Returns(ReconcileResult::RequeueAfter(seconds(30)))});
  auto loop = StartLoop();
  queue_->Add("a");
  ASSERT_TRUE(WaitsAfterCall("a", 1));
  clock_->Step(milliseconds(5));

  ASSERT_TRUE(WaitsAfterCall("a", 2));
  EXPECT_EQ(queue_->NumRequeues("a"), 0);
  ASSERT_TRUE(Eventually([&] { return Total("requeue_after") == 1; }));
  clock_->Step(seconds(29));
  EXPECT_EQ(queue_->Len(), 0u);
  EXPECT_EQ(reconciler_->Calls("a"), 2);
  clock_->Step(seconds(1));

  ASSERT_TRUE(Eventually([&] { return Total("success") == 1; }));
  EXPECT_EQ(reconciler_->Calls("a"), 3);
}

TEST_F(ControllerLoopTest, RequeueIsRateLimitedButNotAnError) {
  reconciler_->Script({Returns(ReconcileResult::Requeue())});
  auto loop = StartLoop();
  queue_->Add("a");
  ASSERT_TRUE(WaitsAfterCall("a", 1));
  EXPECT_EQ(queue_->NumRequeues("a"), 1);
  clock_->Step(milliseconds(5));
  ASSERT_TRUE(Eventually([&] { return Total("success") == 1; }));
  EXPECT_EQ(Total("requeue"), 1);
  EXPECT_EQ(Counter("controller_runtime_reconcile_errors_total"), 0);
}

TEST_F(ControllerLoopTest, WorkersNeverReconcileTheSameKeyConcurrently) {
  auto reconciler = std::make_shared<OverlapCheckingReconciler>();
  auto loop = ControllerLoop::Create({.name = "test", .workers = 8, .registry = registry_}, queue_,
                                     reconciler);
  ASSERT_TRUE(loop.ok());
  ASSERT_TRUE((*loop)->Start().ok());

  std::vector<std::thread> producers;
  for (int p = 0; p < 3; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < 3000; ++i) {
        queue_->Add(std::to_string((i + p) % OverlapCheckingReconciler::kKeys));
      }
    });
  }
  for (std::thread& producer : producers) producer.join();
  for (int k = 0; k < OverlapCheckingReconciler::kKeys; ++k) {
    EXPECT_TRUE(Eventually([&] { return reconciler->reconciled[k] > 0; })) << "key " << k;
  }
  (*loop)->Stop();
  EXPECT_EQ(reconciler->overlaps, 0);
  EXPECT_EQ(Gauge("controller_runtime_max_concurrent_reconciles"), 8);
  EXPECT_EQ(Gauge("controller_runtime_active_workers"), 0);
}

TEST_F(ControllerLoopTest, StopWaitsForTheReconcileInFlight) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  reconciler_->Script({[released] {
    released.wait();
    return ReconcileResult::Requeue();
  }});
  auto loop = StartLoop(2);
  queue_->Add("a");
  ASSERT_TRUE(Eventually([&] { return reconciler_->Calls("a") == 1; }));

  auto stop = std::async(std::launch::async, [&] { loop->Stop(); });
  ASSERT_TRUE(Eventually([&] { return queue_->ShuttingDown(); }));
  // Cannot fail spuriously: Stop() never returns while Reconcile is blocked.
  EXPECT_EQ(stop.wait_for(milliseconds(20)), std::future_status::timeout);
  release.set_value();
  ASSERT_EQ(stop.wait_for(seconds(10)), std::future_status::ready);

  EXPECT_EQ(Total("requeue"), 1);
  EXPECT_EQ(queue_->NumDelayed(), 0u) << "requeues during shutdown are dropped";
  loop->Stop();  // idempotent
}

TEST_F(ControllerLoopTest, StartTwiceIsAnError) {
  auto loop = StartLoop();
  EXPECT_FALSE(loop->Start().ok());
}

TEST_F(ControllerLoopTest, StopWithoutStartIsHarmless) {
  auto loop = ControllerLoop::Create({.name = "test"}, queue_, reconciler_);
  ASSERT_TRUE(loop.ok());
  (*loop)->Stop();
  EXPECT_TRUE(queue_->ShuttingDown());
}

TEST_F(ControllerLoopTest, RejectsInvalidOptions) {
  EXPECT_FALSE(ControllerLoop::Create({.name = "test", .workers = 0}, queue_, reconciler_).ok());
  EXPECT_FALSE(ControllerLoop::Create({.name = "test"}, nullptr, reconciler_).ok());
  EXPECT_FALSE(ControllerLoop::Create({.name = "test"}, queue_, nullptr).ok());
}

TEST_F(ControllerLoopTest, RunsWithoutMetrics) {
  auto loop = ControllerLoop::Create({.name = "plain"}, queue_, reconciler_);
  ASSERT_TRUE(loop.ok());
  ASSERT_TRUE((*loop)->Start().ok());
  queue_->Add("a");
  EXPECT_TRUE(Eventually([&] { return reconciler_->Calls("a") == 1; }));
  EXPECT_EQ(registry_->Collect().size(), 0u);
}

}  // namespace
}  // namespace kube
