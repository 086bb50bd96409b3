#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <chrono>
#include <limits>
#include <memory>
#include <string>

#include "src/base/FakeClock.h"
#include "src/queue/ItemExponentialFailureRateLimiter.h"
#include "src/queue/PrometheusWorkQueueMetrics.h"
#include "src/queue/WorkQueue.h"
#include "tests/src/queue/QueueTestHelpers.h"

namespace kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::CounterValue;
using testing::Eventually;
using testing::GaugeValue;
using testing::HistogramValue;

class PrometheusWorkQueueMetricsTest : public ::testing::Test {
 protected:
  std::unique_ptr<WorkQueue> MakeQueue(const std::string& name) {
    auto metrics = PrometheusWorkQueueMetrics::Create(registry_, name, clock_);
    EXPECT_TRUE(metrics.ok()) << metrics.status().ToString();
    WorkQueue::Options options;
    options.clock = clock_;
    options.rate_limiter =
        std::make_unique<ItemExponentialFailureRateLimiter>(milliseconds(5), seconds(1000));
    options.metrics = std::move(metrics).value();
    return std::make_unique<WorkQueue>(std::move(options));
  }

  double Counter(const std::string& family) {
    return CounterValue(*registry_, family, {{"name", "q"}});
  }
  double Gauge(const std::string& family) {
    return GaugeValue(*registry_, family, {{"name", "q"}});
  }
  prometheus::ClientMetric::Histogram Histogram(const std::string& family) {
    auto histogram = HistogramValue(*registry_, family, {{"name", "q"}});
    EXPECT_TRUE(histogram.has_value()) << family;
    return histogram.value_or(prometheus::ClientMetric::Histogram{});
  }

  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
};

TEST_F(PrometheusWorkQueueMetricsTest, RegistersEverySeriesAtZero) {
  auto queue = MakeQueue("q");
  EXPECT_EQ(Gauge("workqueue_depth"), 0);
  EXPECT_EQ(Counter("workqueue_adds_total"), 0);
  EXPECT_EQ(Counter("workqueue_retries_total"), 0);
  EXPECT_EQ(Gauge("workqueue_unfinished_work_seconds"), 0);
  EXPECT_EQ(Gauge("workqueue_longest_running_processor_seconds"), 0);
  EXPECT_EQ(Histogram("workqueue_queue_duration_seconds").sample_count, 0u);
  EXPECT_EQ(Histogram("workqueue_work_duration_seconds").sample_count, 0u);
}

TEST_F(PrometheusWorkQueueMetricsTest, CountsAddsAndDepth) {
  auto queue = MakeQueue("q");
  queue->Add("a");
  queue->Add("b");
  queue->Add("a");  // deduplicated: not an add
  EXPECT_EQ(Counter("workqueue_adds_total"), 2);
  EXPECT_EQ(Gauge("workqueue_depth"), 2);
  ASSERT_EQ(queue->Get(), "a");
  EXPECT_EQ(Gauge("workqueue_depth"), 1);
}

TEST_F(PrometheusWorkQueueMetricsTest, QueueDurationIsTimeFromAddToGet) {
  auto queue = MakeQueue("q");
  queue->Add("a");
  clock_->Step(seconds(2));
  ASSERT_EQ(queue->Get(), "a");
  const auto histogram = Histogram("workqueue_queue_duration_seconds");
  EXPECT_EQ(histogram.sample_count, 1u);
  EXPECT_DOUBLE_EQ(histogram.sample_sum, 2.0);
}

TEST_F(PrometheusWorkQueueMetricsTest, DurationBucketsDoubleFromAMillisecondToOverAMinute) {
  auto queue = MakeQueue("q");
  for (const char* family :
       {"workqueue_queue_duration_seconds", "workqueue_work_duration_seconds"}) {
    const auto histogram = Histogram(family);
    ASSERT_EQ(histogram.bucket.size(), 18u) << family;  // 17 bounds and +Inf
    EXPECT_DOUBLE_EQ(histogram.bucket.front().upper_bound, 0.001) << family;
    for (size_t i = 1; i + 1 < histogram.bucket.size(); ++i) {
      EXPECT_DOUBLE_EQ(histogram.bucket[i].upper_bound, 2 * histogram.bucket[i - 1].upper_bound)
          << family << " bound " << i;
    }
    EXPECT_DOUBLE_EQ(histogram.bucket[16].upper_bound, 65.536) << family;
    EXPECT_EQ(histogram.bucket.back().upper_bound, std::numeric_limits<double>::infinity());
  }
}

// The point of the buckets: a latency between 1 and 10 s lands in a bucket at
// most twice as wide as its lower bound, not in (1, 10].
TEST_F(PrometheusWorkQueueMetricsTest, QueueDurationOfSecondsIsResolvedWithinAFactorOfTwo) {
  auto queue = MakeQueue("q");
  queue->Add("a");
  clock_->Step(milliseconds(1500));
  ASSERT_EQ(queue->Get(), "a");
  const auto histogram = Histogram("workqueue_queue_duration_seconds");
  size_t first = histogram.bucket.size();
  for (size_t i = 0; i < histogram.bucket.size(); ++i) {
    if (histogram.bucket[i].cumulative_count == 1) {
      first = i;
      break;
    }
  }
  ASSERT_LT(first, histogram.bucket.size());
  ASSERT_GT(first, 0u);
  EXPECT_DOUBLE_EQ(histogram.bucket[first - 1].upper_bound, 1.024);
  EXPECT_DOUBLE_EQ(histogram.bucket[first].upper_bound, 2.048);
}

TEST_F(PrometheusWorkQueueMetricsTest, TracksUnfinishedAndFinishedWork) {
  auto queue = MakeQueue("q");
  queue->Add("a");
  ASSERT_EQ(queue->Get(), "a");
  clock_->Step(seconds(3));
  EXPECT_TRUE(Eventually([&] {
    return Gauge("workqueue_unfinished_work_seconds") == 3 &&
           Gauge("workqueue_longest_running_processor_seconds") == 3;
  }));

  queue->Add("b");
  ASSERT_EQ(queue->Get(), "b");
  clock_->Step(seconds(1));
  EXPECT_TRUE(Eventually([&] {
    return Gauge("workqueue_unfinished_work_seconds") == 4 + 1 &&
           Gauge("workqueue_longest_running_processor_seconds") == 4;
  }));

  queue->Done("a");
  const auto work = Histogram("workqueue_work_duration_seconds");
  EXPECT_EQ(work.sample_count, 1u);
  EXPECT_DOUBLE_EQ(work.sample_sum, 4.0);
}

TEST_F(PrometheusWorkQueueMetricsTest, CountsDelayedAndRateLimitedAddsAsRetries) {
  auto queue = MakeQueue("q");
  queue->AddAfter("a", seconds(1));
  queue->AddAfter("b", Clock::Duration::zero());
  queue->AddRateLimited("c");
  queue->Add("d");
  EXPECT_EQ(Counter("workqueue_retries_total"), 3);
}

TEST_F(PrometheusWorkQueueMetricsTest, QueuesShareFamiliesUnderTheirOwnName) {
  auto first = MakeQueue("first");
  auto second = MakeQueue("second");
  first->Add("a");
  first->Add("b");
  second->Add("a");
  EXPECT_EQ(testing::CountFamilies(*registry_, "workqueue_adds_total"), 1);
  EXPECT_EQ(CounterValue(*registry_, "workqueue_adds_total", {{"name", "first"}}), 2);
  EXPECT_EQ(CounterValue(*registry_, "workqueue_adds_total", {{"name", "second"}}), 1);
}

TEST(PrometheusWorkQueueMetricsRegistryTest, SharesFamiliesOnARegistryThatRejectsDuplicates) {
  auto registry =
      std::make_shared<prometheus::Registry>(prometheus::Registry::InsertBehavior::Throw);
  auto clock = std::make_shared<FakeClock>();
  auto first = PrometheusWorkQueueMetrics::Create(registry, "first", clock);
  auto second = PrometheusWorkQueueMetrics::Create(registry, "second", clock);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(testing::CountFamilies(*registry, "workqueue_depth"), 1);
}

TEST(PrometheusWorkQueueMetricsRegistryTest, NameTakenByAnotherTypeIsAnError) {
  auto registry = std::make_shared<prometheus::Registry>();
  prometheus::BuildCounter().Name("workqueue_depth").Help("not a gauge").Register(*registry);
  auto metrics = PrometheusWorkQueueMetrics::Create(registry, "q", std::make_shared<FakeClock>());
  ASSERT_FALSE(metrics.ok());
  EXPECT_EQ(metrics.status().code(), StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace kube
