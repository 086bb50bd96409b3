// FullSyncStats on a FakeClock: syncs counted by method (and exported), and
// each logged with its items and duration, the first at info level only.
#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "src/base/FakeClock.h"
#include "src/cache/FullSyncStats.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;
using Method = kube::FullSyncStats::Method;

double Counted(prometheus::Registry& registry, const std::string& method) {
  double total = 0;
  for (const auto& family : registry.Collect()) {
    if (family.name != "reflector_syncs_total") continue;
    for (const auto& metric : family.metric) {
      for (const auto& label : metric.label) {
        if (label.name == "method" && label.value == method) total += metric.counter.value;
      }
    }
  }
  return total;
}

class FullSyncStatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    level_ = spdlog::default_logger()->level();
    spdlog::default_logger()->set_level(spdlog::level::debug);
    spdlog::default_logger()->sinks().push_back(log_);
  }
  void TearDown() override {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log_), sinks.end());
    spdlog::default_logger()->set_level(level_);
  }

  std::vector<std::string> Synced() const {
    std::vector<std::string> lines;
    for (const auto& line : log_->last_formatted()) {
      if (line.find("synced") != std::string::npos) lines.push_back(line);
    }
    return lines;
  }

  spdlog::level::level_enum level_ = spdlog::level::info;
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_ =
      std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100);
  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>();
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
};

TEST_F(FullSyncStatsTest, SyncsAreCountedByMethodAndLoggedWithTheirItemsAndDuration) {
  kube::FullSyncStats syncs(clock_, "pods", registry_);

  syncs.Began(clock_->Now());
  syncs.ReadingAfresh();
  syncs.ItemRead();  // a watch-list that fell back: its items do not count
  syncs.ReadingAfresh();
  syncs.ItemRead();
  syncs.ItemRead();
  clock_->Step(250ms);
  syncs.Count(Method::kList);
  syncs.Log(Method::kList);

  syncs.Began(clock_->Now());
  syncs.ReadingAfresh();
  syncs.ItemRead();
  clock_->Step(40ms);
  syncs.Count(Method::kWatchList);
  syncs.Log(Method::kWatchList);

  EXPECT_EQ(syncs.lists(), 1u);
  EXPECT_EQ(syncs.watch_lists(), 1u);
  EXPECT_EQ(Counted(*registry_, "list"), 1);
  EXPECT_EQ(Counted(*registry_, "watch-list"), 1);
  auto lines = Synced();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("[info] pods: synced 2 items by LIST in 250 ms"), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[1].find("[debug] pods: synced 1 items by watch-list in 40 ms"), std::string::npos)
      << lines[1];
}

TEST_F(FullSyncStatsTest, WithoutARegistryTheSyncsAreStillCounted) {
  kube::FullSyncStats syncs(clock_, "pods", nullptr);

  syncs.Count(Method::kWatchList);
  syncs.Count(Method::kWatchList);

  EXPECT_EQ(syncs.lists(), 0u);
  EXPECT_EQ(syncs.watch_lists(), 2u);
}

}  // namespace
}  // namespace dra::testing
