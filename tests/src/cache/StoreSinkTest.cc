// The sink's handler delivery: each handler on its own buffer and thread,
// the store updated first, per-handler order, late handlers, sync meaning
// "handlers have seen the initial list", exceptions counted, stop joins.
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "src/base/FakeClock.h"
#include "src/cache/MetaObject.h"
#include "src/cache/StoreSink.h"
#include "tests/support/CountingHandler.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using kube::WatchEventType;
using namespace std::chrono_literals;
using Ptr = std::shared_ptr<const MetaObject>;

std::string Pod(const std::string& name, int rv) {
  return R"({"metadata":{"name":")" + name + R"(","namespace":"ns","resourceVersion":")" +
         std::to_string(rv) + "\"}}";
}

// A gate handlers wait at until the test opens it (or the fixture does, so a
// failing test never leaves a thread blocked).
class Gate {
 public:
  void Wait() {
    std::unique_lock lock(mu_);
    ++waiting_;
    cv_.wait(lock, [this] { return open_; });
    --waiting_;
  }
  void Open() {
    {
      std::lock_guard lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  int waiting() const {
    std::lock_guard lock(mu_);
    return waiting_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  int waiting_ = 0;
};

// Waits at the gate in every callback, then counts it.
class BlockedHandler : public CountingHandler<MetaObject> {
 public:
  explicit BlockedHandler(Gate& gate) : gate_(gate) {}
  void OnAdd(const Ptr& o) override {
    gate_.Wait();
    CountingHandler::OnAdd(o);
  }
  void OnUpdate(const Ptr& a, const Ptr& b) override {
    gate_.Wait();
    CountingHandler::OnUpdate(a, b);
  }

 private:
  Gate& gate_;
};

// Records "TYPE key@rv" per callback, in the order received.
class RecordingHandler : public kube::EventHandler<MetaObject> {
 public:
  void OnAdd(const Ptr& o) override { Record("ADDED", o); }
  void OnUpdate(const Ptr&, const Ptr& o) override { Record("MODIFIED", o); }
  void OnDelete(const Ptr& o) override { Record("DELETED", o); }
  std::vector<std::string> seen() const {
    std::lock_guard lock(mu_);
    return seen_;
  }

 private:
  void Record(const std::string& type, const Ptr& o) {
    std::lock_guard lock(mu_);
    seen_.push_back(type + " " + o->meta.Key() + "@" + o->meta.resource_version.str());
  }
  mutable std::mutex mu_;
  std::vector<std::string> seen_;
};

class StoreSinkTest : public ::testing::Test {
 protected:
  ~StoreSinkTest() override {
    gate_.Open();
    sink_.Stop();
  }

  void Replace(const std::vector<std::string>& objects) {
    sink_.BeginReplace();
    for (const auto& json : objects) ASSERT_TRUE(sink_.ReplaceItem(Parse(json)).ok());
    sink_.EndReplace("1");
  }
  void Apply(WatchEventType type, const std::string& json) {
    ASSERT_TRUE(sink_.Apply(type, Parse(json)).ok());
  }
  simdjson::dom::element Parse(const std::string& json) {
    auto doc = parser_.parse(json);
    EXPECT_EQ(doc.error(), simdjson::SUCCESS);
    return doc.value_unsafe();
  }
  // Runs `feed` on another thread and fails if it has not returned in 5 s:
  // a sink that delivered on the caller's thread would be stuck in it.
  bool ReturnsPromptly(const std::string& what, std::function<void()> feed) {
    auto done = std::async(std::launch::async, std::move(feed));
    bool returned = done.wait_for(5s) == std::future_status::ready;
    EXPECT_TRUE(returned) << what << " did not return: blocked by a handler";
    if (!returned) gate_.Open();
    return returned;
  }

  std::shared_ptr<prometheus::Registry> metrics_ = std::make_shared<prometheus::Registry>();
  kube::Store<MetaObject> store_;
  kube::StoreSink<MetaObject> sink_{store_, MetaObject::FromJson,
                                    kube::HandlerMetrics(metrics_, "pods")};
  simdjson::dom::parser parser_;
  Gate gate_;
};

double Metric(prometheus::Registry& registry, const std::string& name) {
  double total = 0;
  for (const auto& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const auto& m : family.metric) total += m.counter.value + m.gauge.value;
  }
  return total;
}

TEST_F(StoreSinkTest, ABlockedHandlerDelaysNeitherTheStoreNorOtherHandlers) {
  auto blocked = std::make_shared<BlockedHandler>(gate_);
  auto counting = std::make_shared<CountingHandler<MetaObject>>();
  auto blocked_registration = sink_.AddHandler(blocked);
  auto counting_registration = sink_.AddHandler(counting);

  ASSERT_TRUE(ReturnsPromptly("the initial list and an update", [&] {
    Replace({Pod("a", 1), Pod("b", 2)});
    Apply(WatchEventType::kModified, Pod("a", 3));
  }));
  EXPECT_EQ(store_.Get("ns/a")->meta.resource_version, "3");
  ASSERT_TRUE(WaitFor("the free handler's events", 5s, [&] {
                return counting->adds().size() == 2 && counting->updates().size() == 1;
              }).ok());
  ASSERT_TRUE(WaitFor("the handler at the gate", 5s, [&] { return gate_.waiting() == 1; }).ok());
  EXPECT_TRUE(counting_registration->HasSynced());
  EXPECT_FALSE(blocked_registration->HasSynced());
  EXPECT_FALSE(sink_.HasSynced()) << "one handler has not seen the initial list";
  EXPECT_EQ(blocked_registration->pending(), 3u) << "one add in the callback, two queued";
  EXPECT_EQ(Metric(*metrics_, "informer_handler_queue_depth"), 3);

  gate_.Open();
  ASSERT_TRUE(sink_.WaitForSync(5s));
  ASSERT_TRUE(WaitFor("the blocked handler to catch up", 5s, [&] {
                return blocked->updates().size() == 1;
              }).ok());
  EXPECT_EQ(blocked_registration->max_pending(), 3u);
  EXPECT_EQ(blocked_registration->pending(), 0u);
  EXPECT_EQ(Metric(*metrics_, "informer_handler_queue_depth"), 0);
}

TEST_F(StoreSinkTest, WaitForSyncMeansEveryHandlerHasSeenTheInitialList) {
  auto blocked = std::make_shared<BlockedHandler>(gate_);
  sink_.AddHandler(blocked);
  ASSERT_TRUE(ReturnsPromptly("the initial list", [&] { Replace({Pod("a", 1), Pod("b", 2)}); }));
  EXPECT_EQ(store_.Size(), 2u);
  EXPECT_FALSE(sink_.WaitForSync(100ms)) << "the store is synced, the handler is not";
  gate_.Open();
  ASSERT_TRUE(sink_.WaitForSync(5s));
  EXPECT_EQ(blocked->adds().size(), 2u) << "sync reported before the handler saw the list";
}

TEST_F(StoreSinkTest, AnEmptyInitialListSyncsAtOnce) {
  auto counting = std::make_shared<CountingHandler<MetaObject>>();
  auto registration = sink_.AddHandler(counting);
  Replace({});
  EXPECT_TRUE(sink_.WaitForSync(5s));
  EXPECT_TRUE(registration->HasSynced());
}

// Adds a counting handler to the sink from inside its first callback.
class AddingHandler : public kube::EventHandler<MetaObject> {
 public:
  explicit AddingHandler(kube::StoreSink<MetaObject>& sink) : sink_(sink) {}
  void OnAdd(const Ptr&) override {
    if (!added) added = sink_.AddHandler(late);
  }
  void OnUpdate(const Ptr&, const Ptr&) override {}
  void OnDelete(const Ptr&) override {}

  std::shared_ptr<CountingHandler<MetaObject>> late =
      std::make_shared<CountingHandler<MetaObject>>();
  std::shared_ptr<kube::HandlerRegistration> added;

 private:
  kube::StoreSink<MetaObject>& sink_;
};

TEST_F(StoreSinkTest, AHandlerMayAddAnotherHandlerFromItsCallback) {
  auto adding = std::make_shared<AddingHandler>(sink_);
  sink_.AddHandler(adding);
  ASSERT_TRUE(ReturnsPromptly("the initial list", [&] { Replace({Pod("a", 1), Pod("b", 2)}); }));
  ASSERT_TRUE(sink_.WaitForSync(5s)) << "a re-entrant AddHandler deadlocked";
  ASSERT_NE(adding->added, nullptr);
  EXPECT_TRUE(adding->added->HasSynced());
  EXPECT_EQ(adding->late->adds(), (std::map<std::string, int>{{"ns/a", 1}, {"ns/b", 1}}));
}

TEST_F(StoreSinkTest, ALateHandlerGetsTheCacheAsAddsThenLaterEvents) {
  Replace({Pod("a", 1), Pod("b", 2)});
  ASSERT_TRUE(sink_.WaitForSync(5s));
  auto blocked = std::make_shared<BlockedHandler>(gate_);
  auto registration = sink_.AddHandler(blocked);
  EXPECT_FALSE(registration->HasSynced());
  Apply(WatchEventType::kModified, Pod("b", 3));
  ASSERT_TRUE(WaitFor("the handler at the gate", 5s, [&] { return gate_.waiting() == 1; }).ok());
  EXPECT_FALSE(registration->HasSynced());
  gate_.Open();
  ASSERT_TRUE(WaitFor("the update", 5s, [&] { return blocked->updates().size() == 1; }).ok());
  EXPECT_TRUE(registration->HasSynced());
  EXPECT_EQ(blocked->adds(), (std::map<std::string, int>{{"ns/a", 1}, {"ns/b", 1}}));
}

TEST_F(StoreSinkTest, EachHandlerGetsItsEventsInOrder) {
  auto first = std::make_shared<RecordingHandler>();
  auto second = std::make_shared<RecordingHandler>();
  sink_.AddHandler(first);
  sink_.AddHandler(second);
  std::vector<std::string> expected;
  std::set<std::string> cached;
  Replace({Pod("a", 1)});
  expected.push_back("ADDED ns/a@1");
  for (int rv = 2; rv < 500; ++rv) {
    std::string name = "p" + std::to_string(rv % 7);
    bool known = !cached.insert(name).second;
    Apply(WatchEventType::kAdded, Pod(name, rv));
    expected.push_back(std::string(known ? "MODIFIED " : "ADDED ") + "ns/" + name + "@" +
                       std::to_string(rv));
    if (rv % 11 == 0) {
      Apply(WatchEventType::kDeleted, Pod(name, rv));
      expected.push_back("DELETED ns/" + name + "@" + std::to_string(rv));
      cached.erase(name);
    }
  }
  ASSERT_TRUE(WaitFor("all events", 5s, [&] {
                return first->seen().size() == expected.size() &&
                       second->seen().size() == expected.size();
              }).ok());
  EXPECT_EQ(first->seen(), expected);
  EXPECT_EQ(second->seen(), expected);
}

// The first list is taken whole; a relist against a filled store deletes
// what it lacks, updates what changed and leaves the rest alone.
TEST_F(StoreSinkTest, ARelistDeletesUpdatesAndAddsAgainstTheCache) {
  auto recorder = std::make_shared<RecordingHandler>();
  sink_.AddHandler(recorder);
  Replace({Pod("a", 1), Pod("b", 2), Pod("c", 3)});
  EXPECT_EQ(store_.Size(), 3u);
  Replace({Pod("b", 2), Pod("c", 4), Pod("d", 5)});
  ASSERT_TRUE(WaitFor("all events", 5s, [&] { return recorder->seen().size() == 6; }).ok());
  auto seen = recorder->seen();
  std::sort(seen.begin(), seen.begin() + 3);  // the first list arrives in no set order
  std::sort(seen.begin() + 3, seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"ADDED ns/a@1", "ADDED ns/b@2", "ADDED ns/c@3",
                                            "ADDED ns/d@5", "DELETED ns/a@1", "MODIFIED ns/c@4"}));
  EXPECT_EQ(store_.Get("ns/a"), nullptr);
  ASSERT_NE(store_.Get("ns/c"), nullptr);
  EXPECT_EQ(store_.Get("ns/c")->meta.resource_version.str(), "4");
  EXPECT_EQ(store_.Size(), 3u);
}

// Throws from its first add, then counts.
class ThrowingHandler : public CountingHandler<MetaObject> {
 public:
  void OnAdd(const Ptr& o) override {
    if (++calls_ == 1) throw std::runtime_error("first add fails");
    CountingHandler::OnAdd(o);
  }

 private:
  std::atomic<int> calls_{0};
};

TEST_F(StoreSinkTest, AThrowingHandlerIsCountedAndDeliveryGoesOn) {
  auto throwing = std::make_shared<ThrowingHandler>();
  auto registration = sink_.AddHandler(throwing);
  Replace({Pod("a", 1)});
  Apply(WatchEventType::kAdded, Pod("b", 2));
  ASSERT_TRUE(WaitFor("the second add", 5s, [&] { return throwing->adds().size() == 1; }).ok());
  EXPECT_EQ(throwing->adds(), (std::map<std::string, int>{{"ns/b", 1}}));
  EXPECT_EQ(registration->errors(), 1u);
  EXPECT_EQ(Metric(*metrics_, "informer_handler_errors_total"), 1);
  EXPECT_TRUE(sink_.WaitForSync(5s));
}

TEST_F(StoreSinkTest, StopJoinsTheDeliveryThreadsAndDropsWhatIsQueued) {
  auto blocked = std::make_shared<BlockedHandler>(gate_);
  auto registration = sink_.AddHandler(blocked);
  Replace({Pod("a", 1), Pod("b", 2), Pod("c", 3)});
  ASSERT_TRUE(WaitFor("the handler at the gate", 5s, [&] { return gate_.waiting() == 1; }).ok());
  auto stopped = std::async(std::launch::async, [&] { sink_.Stop(); });
  EXPECT_EQ(stopped.wait_for(100ms), std::future_status::timeout)
      << "Stop must wait for the callback in progress";
  gate_.Open();
  ASSERT_EQ(stopped.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(blocked->adds().size(), 1u) << "only the callback in progress completes";
  EXPECT_EQ(registration->pending(), 0u);
  EXPECT_EQ(Metric(*metrics_, "informer_handler_queue_depth"), 0);
  Apply(WatchEventType::kAdded, Pod("d", 4));
  EXPECT_EQ(store_.Size(), 4u);
  EXPECT_EQ(blocked->adds().size(), 1u) << "nothing is delivered after Stop";
}

TEST_F(StoreSinkTest, AHandlerStuckInACallbackFailsTheHandlerCheck) {
  auto clock = std::make_shared<kube::FakeClock>();
  kube::Store<MetaObject> store;
  kube::StoreSink<MetaObject> sink(store, MetaObject::FromJson, {}, clock);
  std::shared_ptr<void> open_gate_first(nullptr, [this](void*) { gate_.Open(); });
  sink.AddHandler(std::make_shared<BlockedHandler>(gate_));
  sink.BeginReplace();
  ASSERT_TRUE(sink.ReplaceItem(Parse(Pod("a", 1))).ok());
  ASSERT_TRUE(sink.ReplaceItem(Parse(Pod("b", 2))).ok());
  sink.EndReplace("2");
  ASSERT_TRUE(WaitFor("the handler at the gate", 5s, [&] { return gate_.waiting() == 1; }).ok());
  clock->Step(300s);
  EXPECT_TRUE(sink.CheckHandlers(300s, "pods").ok()) << "not past the limit yet";
  clock->Step(1s);
  kube::Status wedged = sink.CheckHandlers(300s, "pods");
  EXPECT_EQ(wedged.code(), kube::StatusCode::kUnavailable);
  EXPECT_EQ(wedged.message(),
            "pods: an event handler has been in one callback for 301 s (limit 300 s), "
            "2 events waiting");
  gate_.Open();
  ASSERT_TRUE(sink.WaitForSync(5s));
  EXPECT_TRUE(sink.CheckHandlers(300s, "pods").ok());
  sink.Stop();
}

// A Pod labelled cached=<keep>, for a sink that keeps only cached=true.
std::string Labelled(const std::string& name, int rv, bool keep) {
  return R"({"metadata":{"name":")" + name + R"(","namespace":"ns","resourceVersion":")" +
         std::to_string(rv) + R"(","labels":{"cached":")" + (keep ? "true" : "false") + "\"}}}";
}

std::vector<std::string> SortedKeys(const kube::Store<MetaObject>& store) {
  auto keys = store.Keys();
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool LabelledCached(const MetaObject& object) {
  for (const auto& [key, value] : object.meta.labels) {
    if (key == "cached") return value == "true";
  }
  return false;
}

// Handlers deliver in order, so once the last kept event has arrived every
// earlier one has too: what they saw is then complete.
TEST_F(StoreSinkTest, ObjectsTheKeepPredicateRefusesAreNeitherCachedNorDelivered) {
  kube::Store<MetaObject> store;
  kube::StoreSink<MetaObject> sink(store, MetaObject::FromJson, {}, nullptr, LabelledCached);
  auto recording = std::make_shared<RecordingHandler>();
  sink.AddHandler(recording);
  sink.BeginReplace();
  ASSERT_TRUE(sink.ReplaceItem(Parse(Labelled("a", 1, true))).ok());
  ASSERT_TRUE(sink.ReplaceItem(Parse(Labelled("b", 2, false))).ok());
  ASSERT_TRUE(sink.ReplaceItem(Parse(Labelled("c", 3, true))).ok());
  sink.EndReplace("3");
  ASSERT_TRUE(sink.WaitForSync(5s));
  EXPECT_EQ(SortedKeys(store), (std::vector<std::string>{"ns/a", "ns/c"}));

  ASSERT_TRUE(sink.Apply(WatchEventType::kAdded, Parse(Labelled("d", 4, false))).ok());
  ASSERT_TRUE(sink.Apply(WatchEventType::kModified, Parse(Labelled("b", 5, false))).ok());
  ASSERT_TRUE(sink.Apply(WatchEventType::kDeleted, Parse(Labelled("b", 6, false))).ok());
  ASSERT_TRUE(sink.Apply(WatchEventType::kModified, Parse(Labelled("a", 7, false))).ok());
  ASSERT_TRUE(sink.Apply(WatchEventType::kModified, Parse(Labelled("d", 8, true))).ok());
  const std::vector<std::string> expected = {"ADDED ns/a@1", "ADDED ns/c@3", "DELETED ns/a@1",
                                             "ADDED ns/d@8"};
  ASSERT_TRUE(WaitFor(
                  "the last kept event", 5s, [&] { return recording->seen().size() >= 4; },
                  [&] { return std::to_string(recording->seen().size()) + " events"; })
                  .ok());
  auto seen = recording->seen();
  std::sort(seen.begin(), seen.begin() + 2);  // a list's adds come in no particular order
  EXPECT_EQ(seen, expected)
      << "a refused object was delivered, or one that stopped being kept did not read as deleted";
  EXPECT_EQ(SortedKeys(store), (std::vector<std::string>{"ns/c", "ns/d"}));

  sink.BeginReplace();
  ASSERT_TRUE(sink.ReplaceItem(Parse(Labelled("c", 9, false))).ok());
  ASSERT_TRUE(sink.ReplaceItem(Parse(Labelled("d", 8, true))).ok());
  sink.EndReplace("9");
  ASSERT_TRUE(
      WaitFor("the relist's delete", 5s, [&] { return recording->seen().size() >= 5; }).ok());
  EXPECT_EQ(recording->seen().back(), "DELETED ns/c@3")
      << "a relist must drop what it no longer keeps";
  EXPECT_EQ(SortedKeys(store), (std::vector<std::string>{"ns/d"}));
  sink.Stop();
}

}  // namespace
}  // namespace dra::testing
