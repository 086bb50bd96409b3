// The reflector's heartbeat and freshness on a FakeClock: a wedged loop
// fails CheckProgress(), a loop whose every request fails keeps beating but
// goes stale, and the watch's idle timeout is a few bookmark intervals; and
// ReflectorHealth's probes alone.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "src/base/FakeClock.h"
#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "src/cache/Reflector.h"
#include "src/cache/ReflectorHealth.h"
#include "src/cache/RestListerWatcher.h"
#include "tests/support/SettlingClock.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using namespace std::chrono_literals;

constexpr const char* kPage = R"({"metadata":{"resourceVersion":"5"},"items":[]})";
constexpr const char* kBookmark =
    R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"6"}}})"
    "\n";

// LISTs answer kPage; WATCHes do what `mode` says when they start.
class ScriptedListerWatcher : public kube::ListerWatcher {
 public:
  enum class Mode {
    kHang,        // never return, never deliver, ignore cancellation until released
    kFail,        // fail at once (Unavailable)
    kBookmarked,  // deliver a bookmark, then stay open until cancelled
  };

  kube::Result<std::string> List(const kube::ListOptions&) override {
    ++lists;
    return std::string(kPage);
  }
  kube::Status Watch(const kube::ListOptions&, const kube::WatchChunkHandler& on_chunk,
                     kube::CancelFlag& cancel) override {
    ++watches;
    switch (mode.load()) {
      case Mode::kHang:
        while (!released) std::this_thread::sleep_for(1ms);
        return kube::Status(kube::StatusCode::kCancelled, "released");
      case Mode::kFail:
        return kube::Status(kube::StatusCode::kUnavailable, "connection refused");
      case Mode::kBookmarked:
        on_chunk(kBookmark);
        ++bookmarks;
        while (!cancel.cancelled()) std::this_thread::sleep_for(1ms);
        return kube::Status(kube::StatusCode::kCancelled, "cancelled");
    }
    return kube::Status::Ok();
  }
  std::string Describe() const override { return "widgets"; }

  std::atomic<Mode> mode{Mode::kBookmarked};
  std::atomic<bool> released{false};
  std::atomic<int> lists{0};
  std::atomic<int> watches{0};
  std::atomic<int> bookmarks{0};
};

class ReflectorHealthTest : public ::testing::Test {
 protected:
  void TearDown() override {
    lw_->released = true;
    if (informer_) informer_->Stop();
  }

  void Start() {
    kube::ReflectorOptions options;
    options.clock = clock_;
    informer_ = std::make_unique<kube::Informer<MetaObject>>(lw_, MetaObject::FromJson, options);
    informer_->Start();
    ASSERT_TRUE(informer_->WaitForSync(5000ms));
  }

  const kube::Reflector& reflector() const { return informer_->reflector(); }

  std::shared_ptr<kube::FakeClock> fake_ = std::make_shared<kube::FakeClock>();
  std::shared_ptr<kube::Clock> clock_ = fake_;
  std::shared_ptr<ScriptedListerWatcher> lw_ = std::make_shared<ScriptedListerWatcher>();
  std::unique_ptr<kube::Informer<MetaObject>> informer_;
};

TEST_F(ReflectorHealthTest, DefaultStallTimeoutCoversAnIdleWatchAndTwoMaximalBackoffs) {
  kube::Store<MetaObject> store;
  kube::StoreSink<MetaObject> sink(store, MetaObject::FromJson);
  kube::Reflector reflector(lw_, sink);
  EXPECT_EQ(reflector.stall_timeout(), 300s);  // 180 s idle + 2 x 30 s backoff + 60 s margin
  EXPECT_TRUE(reflector.CheckProgress().ok()) << "not started: nothing to report";
}

TEST_F(ReflectorHealthTest, AWedgedWatchFailsTheProgressCheckAfterTheStallTimeout) {
  lw_->mode = ScriptedListerWatcher::Mode::kHang;
  Start();
  ASSERT_TRUE(WaitFor("the watch", 5s, [&] { return lw_->watches == 1; }).ok());
  fake_->Step(reflector().stall_timeout());
  EXPECT_TRUE(reflector().CheckProgress().ok()) << reflector().CheckProgress().ToString();
  fake_->Step(1s);
  kube::Status progress = reflector().CheckProgress();
  EXPECT_EQ(progress.code(), kube::StatusCode::kUnavailable);
  EXPECT_NE(progress.message().find("widgets: reflector made no progress for 301 s"),
            std::string::npos)
      << progress.ToString();
}

// The API server is unreachable: the loop keeps trying (alive, so no
// restart) but the cache goes stale; one successful watch makes it fresh.
TEST_F(ReflectorHealthTest, FailingRequestsKeepTheLoopAliveButTheCacheGoesStale) {
  lw_->mode = ScriptedListerWatcher::Mode::kFail;
  auto clock = std::make_shared<SettlingClock>();
  clock_ = clock;
  Start();
  ASSERT_TRUE(WaitFor("the first backoff", 5s, [&] { return lw_->watches == 1; }).ok());
  auto limit = std::chrono::minutes(5);
  // 40 x 10 s, past the 5 min freshness limit; the backoff grows to 30-60 s.
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(clock->StepAndSettle(10s).ok());
    EXPECT_TRUE(reflector().CheckProgress().ok()) << reflector().CheckProgress().ToString();
  }
  EXPECT_GE(lw_->watches, 8) << "the loop kept retrying";
  kube::Status fresh = reflector().CheckFreshness(limit);
  EXPECT_EQ(fresh.code(), kube::StatusCode::kUnavailable);
  EXPECT_NE(fresh.message().find("widgets: no successful list or watch for 400 s"),
            std::string::npos)
      << fresh.ToString();

  lw_->mode = ScriptedListerWatcher::Mode::kBookmarked;
  clock->Step(60s);
  ASSERT_TRUE(WaitFor("a bookmark", 5s, [&] { return lw_->bookmarks == 1; }).ok());
  EXPECT_TRUE(reflector().CheckFreshness(limit).ok())
      << reflector().CheckFreshness(limit).ToString();
  EXPECT_EQ(lw_->lists, 1) << "resumed by watching, not relisting";
}

TEST_F(ReflectorHealthTest, AnAcceptedWatchCountsAsSuccessBeforeAnyData) {
  kube::ReflectorOptions options;
  options.clock = clock_;
  // Announce acceptance with an empty chunk, as RestListerWatcher does on 200.
  class Accepting : public ScriptedListerWatcher {
   public:
    kube::Status Watch(const kube::ListOptions&, const kube::WatchChunkHandler& on_chunk,
                       kube::CancelFlag& cancel) override {
      ++watches;
      clock->Step(4min);  // a quiet collection without bookmarks
      on_chunk({});
      while (!cancel.cancelled()) std::this_thread::sleep_for(1ms);
      return kube::Status(kube::StatusCode::kCancelled, "cancelled");
    }
    std::shared_ptr<kube::FakeClock> clock;
  };
  auto lw = std::make_shared<Accepting>();
  lw->clock = fake_;
  kube::Informer<MetaObject> informer(lw, MetaObject::FromJson, options);
  informer.Start();
  ASSERT_TRUE(WaitFor("the watch", 5s, [&] { return lw->watches == 1; }).ok());
  ASSERT_TRUE(WaitFor("acceptance recorded", 5s, [&] {
                return informer.reflector().last_success() == fake_->Now();
              }).ok());
  fake_->Step(2min);
  EXPECT_TRUE(informer.reflector().CheckFreshness(std::chrono::minutes(5)).ok());
  informer.Stop();
}

TEST(RestListerWatcherTest, BookmarkedWatchesAreCutAfterThreeSilentBookmarkIntervals) {
  kube::ListOptions options;
  options.watch = true;
  options.timeout_seconds = 450;
  EXPECT_EQ(kube::RestListerWatcher::IdleTimeout(options), 480s) << "no bookmarks asked for";
  options.allow_watch_bookmarks = true;
  EXPECT_EQ(kube::RestListerWatcher::IdleTimeout(options), 180s);
  EXPECT_EQ(kube::RestListerWatcher::IdleTimeout(options), 3 * kube::kWatchBookmarkInterval);
}

// What the idle timeout produces: the watch fails with Timeout, and the
// reflector watches again from its resourceVersion without relisting.
TEST_F(ReflectorHealthTest, AWatchCutForSilenceIsResumedNotRelisted) {
  class TimingOut : public ScriptedListerWatcher {
   public:
    kube::Status Watch(const kube::ListOptions& options, const kube::WatchChunkHandler&,
                       kube::CancelFlag& cancel) override {
      {
        std::lock_guard lock(mu);
        resource_versions.push_back(options.resource_version);
      }
      if (++watches == 1) return kube::Status(kube::StatusCode::kTimeout, "idle timeout");
      while (!cancel.cancelled()) std::this_thread::sleep_for(1ms);
      return kube::Status(kube::StatusCode::kCancelled, "cancelled");
    }
    std::mutex mu;
    std::vector<std::string> resource_versions;
  };
  auto lw = std::make_shared<TimingOut>();
  kube::ReflectorOptions options;
  options.clock = clock_;
  kube::Informer<MetaObject> informer(lw, MetaObject::FromJson, options);
  informer.Start();
  ASSERT_TRUE(WaitFor("the backoff", 5s, [&] { return fake_->NumWaiters() == 1; }).ok());
  fake_->Step(2s);
  ASSERT_TRUE(WaitFor("the second watch", 5s, [&] { return lw->watches == 2; }).ok());
  informer.Stop();
  EXPECT_EQ(lw->lists, 1);
  std::lock_guard lock(lw->mu);
  EXPECT_EQ(lw->resource_versions, (std::vector<std::string>{"5", "5"}));
}

class ReflectorHealthProbesTest : public ::testing::Test {
 protected:
  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>();
  kube::ReflectorHealth health_{clock_, "pods", 10s, 2000ms};
};

TEST_F(ReflectorHealthProbesTest, ProbesPassWhileTheLoopIsNotRunning) {
  health_.WatchOpened();
  clock_->Step(1h);
  EXPECT_TRUE(health_.CheckProgress().ok());
  EXPECT_TRUE(health_.CheckFreshness(1s).ok());
  EXPECT_TRUE(health_.CheckWatchProgress().ok());

  health_.Started();
  health_.Stopped();
  clock_->Step(1h);
  EXPECT_TRUE(health_.CheckProgress().ok());
  EXPECT_TRUE(health_.CheckFreshness(1s).ok());
}

TEST_F(ReflectorHealthProbesTest, BeatsKeepTheLoopAliveButOnlySuccessesKeepItFresh) {
  health_.Started();
  clock_->Step(8s);
  health_.Beat();
  clock_->Step(8s);

  EXPECT_TRUE(health_.CheckProgress().ok()) << "8 s since the last beat, limit 10 s";
  kube::Status stale = health_.CheckFreshness(15s);
  EXPECT_EQ(stale.code(), kube::StatusCode::kUnavailable);
  EXPECT_EQ(stale.message(), "pods: no successful list or watch for 16 s (limit 15 s)");

  clock_->Step(3s);
  kube::Status stalled = health_.CheckProgress();
  EXPECT_EQ(stalled.code(), kube::StatusCode::kUnavailable);
  EXPECT_EQ(stalled.message(), "pods: reflector made no progress for 11 s (limit 10 s)");

  health_.Succeeded();
  EXPECT_TRUE(health_.CheckProgress().ok());
  EXPECT_TRUE(health_.CheckFreshness(15s).ok());
  EXPECT_EQ(health_.heartbeat(), clock_->Now());
  EXPECT_EQ(health_.last_success(), clock_->Now());
}

TEST_F(ReflectorHealthProbesTest, AnOpenWatchIsReadyOnlyWhileItDeliversCompleteEvents) {
  health_.Started();
  health_.WatchOpened();
  clock_->Step(1500ms);
  EXPECT_TRUE(health_.CheckWatchProgress().ok());

  health_.Beat();  // bytes of an event that has not completed
  clock_->Step(1000ms);
  kube::Status quiet = health_.CheckWatchProgress();
  EXPECT_EQ(quiet.code(), kube::StatusCode::kUnavailable);
  EXPECT_EQ(quiet.message(), "pods: watch delivered no complete event for 2500 ms (limit 2000 ms)");

  health_.Beat();
  health_.EventArrived();
  EXPECT_TRUE(health_.CheckWatchProgress().ok());

  clock_->Step(5s);
  health_.WatchClosed();
  EXPECT_TRUE(health_.CheckWatchProgress().ok()) << "no watch open: nothing to judge";
}

}  // namespace
}  // namespace dra::testing
