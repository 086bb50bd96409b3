// The reflector and informer over a fake ListerWatcher and a FakeClock:
// relist storms, stale objects after projection failures, handlers that read
// the cache.
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "src/base/FakeClock.h"
#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "src/cache/Reflector.h"
#include "tests/support/CountingHandler.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using namespace std::chrono_literals;

std::string Pod(const std::string& name, int rv, const std::string& label = "") {
  std::string labels = label.empty() ? "" : R"(,"labels":{")" + label + R"(":"true"})";
  return R"({"metadata":{"name":")" + name + R"(","namespace":"ns","resourceVersion":")" +
         std::to_string(rv) + "\"" + labels + "}}";
}

std::string Page(const std::vector<std::string>& items, int rv) {
  std::string joined;
  for (const auto& item : items) joined += (joined.empty() ? "" : ",") + item;
  return R"({"metadata":{"resourceVersion":")" + std::to_string(rv) + R"("},"items":[)" + joined +
         "]}";
}

std::string Event(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}\n";
}

// Answers LISTs with `page` and WATCHes with `watch` (by default a watch that
// stays open until cancelled).
class FakeListerWatcher : public kube::ListerWatcher {
 public:
  using WatchFunc = std::function<kube::Status(const kube::WatchChunkHandler&)>;

  FakeListerWatcher(std::string page, WatchFunc watch) : page_(std::move(page)), watch_(watch) {}

  kube::Result<std::string> List(const kube::ListOptions&) override {
    ++lists;
    return page_;
  }
  kube::Status Watch(const kube::ListOptions&, const kube::WatchChunkHandler& on_chunk,
                     kube::CancelFlag& cancel) override {
    ++watches;
    if (watch_) return watch_(on_chunk);
    while (!cancel.cancelled()) std::this_thread::sleep_for(5ms);
    return kube::Status(kube::StatusCode::kCancelled, "cancelled");
  }
  std::string Describe() const override { return "pods"; }

  std::atomic<int> lists{0};
  std::atomic<int> watches{0};

 private:
  std::string page_;
  WatchFunc watch_;
};

kube::Result<MetaObject> RefusePoisoned(simdjson::dom::element object) {
  auto meta = MetaObject::FromJson(object);
  if (!meta.ok()) return meta.status();
  for (const auto& [key, value] : meta->meta.labels) {
    if (key == "poison") return kube::Status(kube::StatusCode::kInvalidArgument, "poisoned");
  }
  return meta;
}

std::set<std::string> Keys(const kube::StoreReader<MetaObject>& store) {
  auto keys = store.Keys();
  return {keys.begin(), keys.end()};
}

TEST(ReflectorTest, RepeatedGoneWatchesRelistThroughAGrowingBackoff) {
  auto clock = std::make_shared<kube::FakeClock>();
  auto lw = std::make_shared<FakeListerWatcher>(Page({Pod("a", 1)}, 5), [](const auto&) {
    return kube::Status(kube::StatusCode::kGone, "too old resource version");
  });
  kube::ReflectorOptions options;
  options.clock = clock;  // backoff 0.8 s, 1.6 s, ... each stretched by up to 2x
  kube::Informer<MetaObject> informer(lw, MetaObject::FromJson, options);
  informer.Start();
  auto waiting = [&] { return clock->NumWaiters() == 1; };

  ASSERT_TRUE(WaitFor("the reflector to wait for its backoff", 5s, waiting).ok())
      << "lists so far: " << lw->lists;
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(lw->lists, 1) << "no relist before the backoff has passed";
  clock->Step(1600ms);
  ASSERT_TRUE(WaitFor("a second list", 5s, [&] { return lw->lists == 2; }).ok());
  ASSERT_TRUE(
      WaitFor("the second backoff", 5s, [&] { return lw->watches == 2 && waiting(); }).ok());
  clock->Step(1500ms);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(lw->lists, 2) << "the second delay is at least 1.6 s";
  clock->Step(1700ms);
  EXPECT_TRUE(WaitFor("a third list", 5s, [&] { return lw->lists == 3; }).ok());
  informer.Stop();
}

TEST(ReflectorTest, ProjectionFailureOnModifiedDropsTheStaleObject) {
  auto lw = std::make_shared<FakeListerWatcher>(
      Page({Pod("a", 1), Pod("b", 2)}, 2), [](const kube::WatchChunkHandler& on_chunk) {
        on_chunk(Event("MODIFIED", Pod("a", 3, "poison")) +
                 Event("DELETED", Pod("b", 4, "poison")));
        std::this_thread::sleep_for(10ms);
        return kube::Status(kube::StatusCode::kCancelled, "done");
      });
  kube::Informer<MetaObject> informer(lw, RefusePoisoned);
  auto events = std::make_shared<CountingHandler<MetaObject>>();
  informer.AddHandler(events);
  informer.Start();
  ASSERT_TRUE(WaitFor("both deletes", 5s, [&] { return events->deletes().size() == 2; }).ok());
  informer.Stop();
  EXPECT_TRUE(Keys(informer.store()).empty());
  EXPECT_EQ(events->deletes(), (std::map<std::string, int>{{"ns/a", 1}, {"ns/b", 1}}));
  EXPECT_EQ(informer.reflector().decode_errors(), 2u);
  EXPECT_EQ(informer.reflector().last_resource_version(), "4");
}

// An operator reading the log sees how long each cache took to fill, and
// with how many items, so a slow start can be pinned on one resource.
TEST(ReflectorTest, TheFirstSyncIsLoggedWithItsItemsAndDuration) {
  auto log = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100);
  spdlog::default_logger()->sinks().push_back(log);
  std::shared_ptr<void> remove_sink(nullptr, [log](void*) {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log), sinks.end());
  });
  auto lw = std::make_shared<FakeListerWatcher>(Page({Pod("a", 1), Pod("b", 2), Pod("c", 3)}, 3),
                                                nullptr);
  kube::Informer<MetaObject> informer(lw, MetaObject::FromJson);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5000ms));
  informer.Stop();
  std::string synced;
  for (const auto& line : log->last_formatted()) {
    if (line.find("synced") != std::string::npos) synced = line;
  }
  EXPECT_NE(synced.find("pods: synced 3 items by LIST in "), std::string::npos) << synced;
  EXPECT_NE(synced.find(" ms"), std::string::npos) << synced;
}

// Reads the informer's cache from inside its callbacks.
class StoreReadingHandler : public kube::EventHandler<MetaObject> {
 public:
  explicit StoreReadingHandler(const kube::StoreReader<MetaObject>& store) : store_(store) {}
  void OnAdd(const Ptr& object) override {
    if (store_.Get(object->meta.Key()) == object && !store_.List().empty()) ++seen_;
  }
  void OnUpdate(const Ptr&, const Ptr&) override {}
  void OnDelete(const Ptr&) override {}
  int seen() const { return seen_; }

 private:
  const kube::StoreReader<MetaObject>& store_;
  std::atomic<int> seen_{0};
};

TEST(ReflectorTest, HandlersMayReadTheStoreFromTheirCallbacks) {
  auto lw = std::make_shared<FakeListerWatcher>(Page({Pod("a", 1), Pod("b", 2)}, 2), nullptr);
  kube::Informer<MetaObject> informer(lw, MetaObject::FromJson);
  auto handler = std::make_shared<StoreReadingHandler>(informer.store());
  informer.AddHandler(handler);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s)) << "a handler reading the store must not deadlock";
  EXPECT_EQ(handler->seen(), 2) << "each object is in the store when its add is delivered";
  informer.Stop();
}

}  // namespace
}  // namespace dra::testing

namespace dra::testing {
namespace {

// Refuses pages longer than `max_items` as over the size cap, like the
// transport does for a body past RestConfig::max_response_body_bytes.
class CappedListerWatcher : public kube::ListerWatcher {
 public:
  explicit CappedListerWatcher(int64_t max_items) : max_items_(max_items) {}

  kube::Result<std::string> List(const kube::ListOptions& options) override {
    std::lock_guard lock(mu_);
    limits_.push_back(options.limit);
    if (options.limit > max_items_) {
      return kube::Status(kube::StatusCode::kTooLarge, "response body exceeds the cap");
    }
    return Page({Pod("a", 1), Pod("b", 2)}, 2);
  }
  kube::Status Watch(const kube::ListOptions&, const kube::WatchChunkHandler&,
                     kube::CancelFlag& cancel) override {
    while (!cancel.cancelled()) std::this_thread::sleep_for(5ms);
    return kube::Status(kube::StatusCode::kCancelled, "cancelled");
  }
  std::string Describe() const override { return "pods"; }

  std::vector<int64_t> limits() const {
    std::lock_guard lock(mu_);
    return limits_;
  }

 private:
  const int64_t max_items_;
  mutable std::mutex mu_;
  std::vector<int64_t> limits_;
};

TEST(ReflectorTest, APageOverTheSizeCapIsAskedForAgainInSmallerPages) {
  auto lw = std::make_shared<CappedListerWatcher>(100);
  kube::Informer<MetaObject> informer(lw, MetaObject::FromJson);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s)) << "limits asked: " << lw->limits().size();
  informer.Stop();
  EXPECT_EQ(Keys(informer.store()), (std::set<std::string>{"ns/a", "ns/b"}));
  auto limits = lw->limits();
  ASSERT_GE(limits.size(), 4u);
  EXPECT_EQ(std::vector<int64_t>(limits.begin(), limits.begin() + 4),
            (std::vector<int64_t>{500, 250, 125, 62}));
}

}  // namespace
}  // namespace dra::testing
