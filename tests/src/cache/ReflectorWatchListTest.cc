// The reflector's watch-list (sendInitialEvents=true) against a scripted
// server: the happy path, and each way a server can fail to serve it.
#include <gtest/gtest.h>

#include <set>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/ScriptedPodInformerTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using kube::WatchListMode;
using namespace std::chrono_literals;
using Counts = std::map<std::string, int>;

std::string Added(const std::string& name, int rv) {
  return WatchEvent("ADDED", ScriptedPodInformerTest::Pod(name, rv));
}

// An ordinary bookmark: no annotation.
std::string PlainBookmark(int rv) {
  return WatchEvent("BOOKMARK",
                    R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" +
                        std::to_string(rv) + R"("}})");
}

// The bookmark kube-apiserver ends a watch-list's initial events with.
std::string InitialEventsEnd(int rv) {
  return WatchEvent("BOOKMARK",
                    R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" +
                        std::to_string(rv) +
                        R"(","annotations":{"k8s.io/initial-events-end":"true"}}})");
}

std::string Gone() { return WatchEvent("ERROR", StatusJson(410, "Expired", "too old")); }

bool IsWatchList(const RecordedRequest& r) {
  return r.Path() == "/api/v1/pods" && r.QueryParam("watch") &&
         r.QueryParam("sendInitialEvents") == "true";
}
bool IsPlainWatch(const RecordedRequest& r) {
  return r.Path() == "/api/v1/pods" && r.QueryParam("watch") && !r.QueryParam("sendInitialEvents");
}

// Lines, then the stream stays open (and quiet) until the test ends.
ScriptedResponse StreamThenIdle(const std::vector<std::string>& lines) {
  std::vector<StreamStep> steps;
  for (const auto& line : lines) steps.push_back(StreamStep::Chunk(line));
  steps.push_back(StreamStep::Pause(StreamStep::kMaxPause));
  return ScriptedResponse::Streamed(std::move(steps));
}

class ReflectorWatchListTest : public ScriptedPodInformerTest {
 protected:
  void SetUp() override {
    ScriptedPodInformerTest::SetUp();
    if (HasFatalFailure()) return;
    lists_ = server_->AddRoute(Route::Where("GET", IsList).Once());
    watch_lists_ = server_->AddRoute(Route::Where("GET", IsWatchList).Once());
    watches_ = server_->AddRoute(Route::Where("GET", IsPlainWatch).Once());
    options_.initial_events_idle_timeout = 300ms;
  }

  void TearDown() override {
    ScriptedPodInformerTest::TearDown();
    if (!server_) return;
    EXPECT_TRUE(server_->ScriptErrors().empty()) << server_->ScriptErrors()[0];
  }

  bool WaitForSync() { return informer_->WaitForSync(10s); }

  double Syncs(const std::string& method) {
    return Counted("reflector_syncs_total", "method", method);
  }

  const kube::Reflector& reflector() { return informer_->reflector(); }

  ScriptedHttpServer::RouteId lists_ = 0, watch_lists_ = 0, watches_ = 0;
};

// The cache is replaced at the bookmark, not before, and the same stream
// then goes on as the watch: one request, no LIST.
TEST_F(ReflectorWatchListTest, SyncsAtTheBookmarkAndKeepsWatchingOnTheSameStream) {
  Gate bookmark;
  Enqueue(watch_lists_,
          ScriptedResponse::Streamed(
              {StreamStep::Chunk(Added("a", 3) + Added("b", 4)), StreamStep::WaitFor(bookmark),
               StreamStep::Chunk(InitialEventsEnd(5)), StreamStep::Chunk(Added("c", 6)),
               StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(WaitFor("two initial events to be read", 10s, [&] {
                return Requests(IsWatchList).size() == 1;
              }).ok());
  EXPECT_FALSE(informer_->WaitForSync(200ms)) << "synced before the initial-events-end bookmark";
  EXPECT_EQ(informer_->store().Size(), 0u) << "initial events must not reach the cache one by one";
  bookmark.Open();
  ASSERT_TRUE(WaitForSync());
  ASSERT_TRUE(WaitFor("the event after the bookmark", 10s, [&] {
                // The store takes an event before its resourceVersion is kept.
                return informer_->store().Size() == 3 && reflector().last_resource_version() == "6";
              }).ok());
  ASSERT_TRUE(WaitForRequest(IsWatchList, 1));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/b", "ns/c"}));
  EXPECT_EQ(events_->adds(), (Counts{{"ns/a", 1}, {"ns/b", 1}, {"ns/c", 1}}));
  EXPECT_EQ(reflector().watch_lists(), 1u);
  EXPECT_EQ(reflector().lists(), 0u);
  EXPECT_EQ(Syncs("watch-list"), 1);
  EXPECT_EQ(Syncs("list"), 0);
  EXPECT_EQ(server_->Requests().size(), 1u) << "no LIST, no second watch";
  auto request = Requests(IsWatchList)[0];
  EXPECT_EQ(request.QueryParam("resourceVersionMatch"), "NotOlderThan");
  EXPECT_EQ(request.QueryParam("allowWatchBookmarks"), "true");
  EXPECT_FALSE(request.QueryParam("resourceVersion").has_value())
      << "the first sync starts at \"\"";
  EXPECT_FALSE(request.QueryParam("limit").has_value());
}

// A server that ignores sendInitialEvents streams a plain watch: no
// bookmark ever comes. After the quiet spell the reflector lists instead,
// the objects it streamed do not leak into the cache, and the fallback is
// remembered: a relist after 410 is a LIST, not another watch-list.
TEST_F(ReflectorWatchListTest, NoBookmarkFallsBackToListAndRemembersIt) {
  Enqueue(watch_lists_, StreamThenIdle({Added("stale", 1), PlainBookmark(2)}));
  Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1), Pod("b", 2)}, 2)));
  Enqueue(watches_, StreamThenIdle({Gone()}));
  Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1)}, 8)));
  Enqueue(watches_, StreamThenIdle({}));
  StartInformer();
  ASSERT_TRUE(WaitForSync());
  ASSERT_TRUE(WaitForRequest(IsPlainWatch, 2));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a"}));
  EXPECT_EQ(events_->adds(), (Counts{{"ns/a", 1}, {"ns/b", 1}}));
  EXPECT_EQ(events_->deletes(), (Counts{{"ns/b", 1}}));
  EXPECT_EQ(reflector().watch_list_fallbacks(), 1u);
  EXPECT_EQ(Requests(IsWatchList).size(), 1u) << "the fallback was not remembered";
  EXPECT_EQ(reflector().lists(), 2u);
  EXPECT_EQ(Requests(IsPlainWatch)[1].QueryParam("resourceVersion"), "8");
}

// A stream that the server ends before the bookmark (here after an ordinary
// bookmark) is a plain watch too: list at once.
TEST_F(ReflectorWatchListTest, StreamEndedBeforeTheBookmarkFallsBackToList) {
  Enqueue(watch_lists_,
          ScriptedResponse::Streamed(
              {StreamStep::Chunk(Added("stale", 1) + PlainBookmark(2)), StreamStep::End()}));
  Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1)}, 2)));
  Enqueue(watches_, StreamThenIdle({}));
  StartInformer();
  ASSERT_TRUE(WaitForSync());
  ASSERT_TRUE(WaitForRequest(IsPlainWatch, 1));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a"}));
  EXPECT_EQ(events_->adds(), (Counts{{"ns/a", 1}}));
  EXPECT_EQ(reflector().watch_list_fallbacks(), 1u);
  EXPECT_EQ(Syncs("list"), 1);
}

// kube-apiserver with the WatchList feature gate off answers 422; an older
// or stricter server may answer 400. Both mean: list, without a backoff.
TEST_F(ReflectorWatchListTest, RefusedParametersFallBackToList) {
  for (int code : {422, 400}) {
    SCOPED_TRACE(code);
    TearDown();
    events_ = std::make_shared<CountingHandler<MetaObject>>();
    SetUp();
    options_.initial_backoff = 10s;  // a fallback that waited would time out
    Enqueue(watch_lists_,
            ScriptedResponse::KubeStatus(
                code, code == 422 ? "Invalid" : "BadRequest",
                "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the "
                "WatchList feature gate is enabled"));
    Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1)}, 1)));
    Enqueue(watches_, StreamThenIdle({}));
    StartInformer();
    ASSERT_TRUE(WaitForSync());
    ASSERT_TRUE(WaitForRequest(IsPlainWatch, 1));
    EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a"}));
    EXPECT_EQ(reflector().watch_list_fallbacks(), 1u);
    EXPECT_EQ(reflector().watch_lists(), 0u);
    informer_.reset();
  }
}

// A connection cut in the middle of the initial events is a network fault,
// not a refusal: the watch-list is retried, and what the first attempt
// streamed is neither lost nor announced twice.
TEST_F(ReflectorWatchListTest, StreamCutMidInitialEventsRetriesWithoutDuplicates) {
  Enqueue(watch_lists_,
          ScriptedResponse::Streamed({StreamStep::Chunk(Added("a", 1) + Added("b", 2)),
                                      StreamStep::CloseAbruptly(CloseHow::kReset)}));
  Enqueue(watch_lists_,
          StreamThenIdle({Added("a", 1), Added("b", 2), Added("c", 3), InitialEventsEnd(4)}));
  StartInformer();
  ASSERT_TRUE(WaitForSync());
  ASSERT_TRUE(WaitForRequest(IsWatchList, 2));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/b", "ns/c"}));
  EXPECT_EQ(events_->adds(), (Counts{{"ns/a", 1}, {"ns/b", 1}, {"ns/c", 1}}));
  EXPECT_TRUE(events_->deletes().empty());
  EXPECT_EQ(reflector().watch_list_fallbacks(), 0u);
  EXPECT_EQ(reflector().lists(), 0u);
  EXPECT_TRUE(Requests(IsList).empty());
}

// 410 Gone after the sync, and again during the next initial events: each
// watch-list starts over from resourceVersion "" (not the expired one), and
// the final replace emits only the difference.
TEST_F(ReflectorWatchListTest, GoneDuringInitialEventsStartsOverFromScratch) {
  Enqueue(watch_lists_,
          ScriptedResponse::Streamed(
              {StreamStep::Chunk(Added("a", 1) + Added("b", 2) + InitialEventsEnd(5) + Gone()),
               StreamStep::End()}));
  Enqueue(watch_lists_, ScriptedResponse::Streamed(
                            {StreamStep::Chunk(Added("a", 1) + Gone()), StreamStep::End()}));
  Enqueue(watch_lists_, StreamThenIdle({Added("a", 1), Added("c", 7), InitialEventsEnd(9)}));
  StartInformer();
  ASSERT_TRUE(WaitForRequest(IsWatchList, 3));
  ASSERT_TRUE(WaitFor("the second sync", 10s, [&] { return reflector().watch_lists() == 2; }).ok());
  ASSERT_TRUE(WaitFor("the handler to catch up", 10s, [&] {
                return events_registration_->pending() == 0;
              }).ok());
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/c"}));
  EXPECT_EQ(events_->adds(), (Counts{{"ns/a", 1}, {"ns/b", 1}, {"ns/c", 1}}));
  EXPECT_EQ(events_->deletes(), (Counts{{"ns/b", 1}}));
  EXPECT_TRUE(events_->updates().empty());
  auto requests = Requests(IsWatchList);
  EXPECT_FALSE(requests[1].QueryParam("resourceVersion").has_value()) << "must not pin RV 5";
  EXPECT_FALSE(requests[2].QueryParam("resourceVersion").has_value());
  EXPECT_EQ(reflector().last_resource_version(), "9");
  EXPECT_EQ(reflector().lists(), 0u);
  EXPECT_EQ(reflector().watch_list_fallbacks(), 0u);
}

// An ordinary bookmark among the initial events neither syncs the cache nor
// moves the resourceVersion; only the annotated one does.
TEST_F(ReflectorWatchListTest, BookmarkWithoutTheAnnotationDoesNotSync) {
  Gate end;
  Enqueue(watch_lists_,
          ScriptedResponse::Streamed(
              {StreamStep::Chunk(Added("a", 3) + PlainBookmark(4)), StreamStep::WaitFor(end),
               StreamStep::Chunk(InitialEventsEnd(6)), StreamStep::Pause(StreamStep::kMaxPause)}));
  options_.initial_events_idle_timeout = 5s;  // outlasts the check below
  StartInformer();
  EXPECT_FALSE(informer_->WaitForSync(500ms));
  EXPECT_EQ(reflector().last_resource_version(), "");
  EXPECT_EQ(informer_->store().Size(), 0u);
  end.Open();
  ASSERT_TRUE(WaitForSync());
  EXPECT_EQ(reflector().last_resource_version(), "6");
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a"}));
}

// Objects changed or deleted while the initial events stream: the replace
// holds their last state, and a deleted one is never announced at all.
TEST_F(ReflectorWatchListTest, ObjectsDeletedDuringTheInitialStreamNeverReachTheCache) {
  Enqueue(watch_lists_,
          StreamThenIdle({Added("a", 3), Added("b", 4), WatchEvent("DELETED", Pod("b", 5)),
                          WatchEvent("MODIFIED", Pod("a", 6)), InitialEventsEnd(7)}));
  StartInformer();
  ASSERT_TRUE(WaitForSync());
  ASSERT_TRUE(WaitForRequest(IsWatchList, 1));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a"}));
  EXPECT_EQ(informer_->store().Get("ns/a")->meta.resource_version, "6");
  EXPECT_EQ(events_->adds(), (Counts{{"ns/a", 1}}));
  EXPECT_TRUE(events_->deletes().empty());
  EXPECT_TRUE(events_->updates().empty());
}

TEST_F(ReflectorWatchListTest, ModeOffListsAndNeverAsksForInitialEvents) {
  options_.watch_list = WatchListMode::kOff;
  Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1)}, 1)));
  Enqueue(watches_, StreamThenIdle({}));
  StartInformer();
  ASSERT_TRUE(WaitForSync());
  ASSERT_TRUE(WaitForRequest(IsPlainWatch, 1));
  EXPECT_TRUE(Requests(IsWatchList).empty());
  EXPECT_EQ(Syncs("list"), 1);
  EXPECT_EQ(reflector().watch_lists(), 0u);
}

// Forced on, a refusal is retried (with backoff) and never listed.
TEST_F(ReflectorWatchListTest, ModeOnNeverFallsBack) {
  options_.watch_list = WatchListMode::kOn;
  Enqueue(watch_lists_,
          ScriptedResponse::KubeStatus(422, "Invalid", "sendInitialEvents forbidden"));
  Enqueue(watch_lists_, StreamThenIdle({Added("a", 1), InitialEventsEnd(2)}));
  StartInformer();
  ASSERT_TRUE(WaitForSync());
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a"}));
  EXPECT_TRUE(Requests(IsList).empty());
  EXPECT_EQ(reflector().watch_list_fallbacks(), 0u);
  EXPECT_EQ(Requests(IsWatchList).size(), 2u);
}

}  // namespace
}  // namespace dra::testing
