// The reflector against a scripted server doing what a real apiserver can't
// be made to do on demand: 410 mid-stream, cut chunks, garbage, stalls.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/ScriptedPodInformerTest.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::MetaObject;
using namespace std::chrono_literals;

std::string Bookmark(int rv) {
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" + std::to_string(rv) +
         R"("}})";
}

// {"a":{"a":...{"a":1}...}} with `depth` objects.
std::string Nested(int depth) {
  std::string out;
  out.reserve(static_cast<size_t>(depth) * 6 + 1);
  for (int i = 0; i < depth; ++i) out += R"({"a":)";
  out += "1";
  out.append(static_cast<size_t>(depth), '}');
  return out;
}

// A Pod whose spec nests `depth` objects (kube-apiserver takes up to 10,000).
std::string DeepPod(const std::string& name, int rv, int depth) {
  std::string pod = ScriptedPodInformerTest::Pod(name, rv);
  pod.pop_back();
  return pod + R"(,"spec":)" + Nested(depth) + "}";
}

// A Pod carrying `bytes` of annotation.
std::string BigPod(const std::string& name, int rv, size_t bytes) {
  std::string pod = ScriptedPodInformerTest::Pod(name, rv);
  pod.pop_back();
  return pod + R"(,"spec":{"blob":")" + std::string(bytes, 'x') + R"("}})";
}

// A watch that stays open (and quiet) until the test ends.
ScriptedResponse IdleWatch() {
  return ScriptedResponse::Streamed({StreamStep::Pause(StreamStep::kMaxPause)});
}

class ReflectorFaultTest : public ScriptedPodInformerTest {
 protected:
  void SetUp() override {
    ScriptedPodInformerTest::SetUp();
    if (HasFatalFailure()) return;
    lists_ = server_->AddRoute(Route::Where("GET", IsList).Once());
    watches_ = server_->AddRoute(Route::Where("GET", IsWatch).Once());
    options_.watch_list = kube::WatchListMode::kOff;  // these scripts serve LIST + WATCH
  }

  void List(std::vector<std::string> pods, int rv) {
    ASSERT_TRUE(server_->Enqueue(lists_, ScriptedResponse::Json(200, PodList(pods, rv))).ok());
  }
  void Watch(ScriptedResponse response) {
    ASSERT_TRUE(server_->Enqueue(watches_, std::move(response)).ok());
  }

  // Watch request #n also means the reflector handled what came before it;
  // then waits until the handler has been given all of that.
  bool WaitForWatches(size_t n) { return WaitForRequest(IsWatch, n, "watch request"); }

  // Requests answered with `code`, from rest_client_requests_total.
  double RequestsCounted(const std::string& code) {
    return Counted("rest_client_requests_total", "code", code);
  }

  ScriptedHttpServer::RouteId lists_ = 0, watches_ = 0;
};

TEST_F(ReflectorFaultTest, GoneInStreamRelistsOnceAndEmitsTheDifference) {
  List({Pod("a", 1), Pod("b", 2)}, 2);
  Watch(ScriptedResponse::Streamed(
      {StreamStep::Chunk(WatchEvent("ADDED", Pod("c", 3))),
       StreamStep::Chunk(WatchEvent("ERROR", StatusJson(410, "Expired", "too old"))),
       StreamStep::End()}));
  List({Pod("a", 1), Pod("c", 3), Pod("d", 4)}, 5);
  Watch(IdleWatch());
  StartInformer();

  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/c", "ns/d"}));
  EXPECT_EQ(informer_->reflector().lists(), 2u);
  EXPECT_EQ(events_->adds(),
            (std::map<std::string, int>{{"ns/a", 1}, {"ns/b", 1}, {"ns/c", 1}, {"ns/d", 1}}));
  EXPECT_EQ(events_->deletes(), (std::map<std::string, int>{{"ns/b", 1}}));
  EXPECT_TRUE(events_->updates().empty())
      << "unchanged objects must not be re-announced after a relist";
  EXPECT_EQ(Requests(IsWatch)[1].QueryParam("resourceVersion"), "5");
}

TEST_F(ReflectorFaultTest, GoneOverHttpRelists) {
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::KubeStatus(410, "Expired", "too old resource version: 1 (9)"));
  List({Pod("a", 9)}, 9);
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(informer_->reflector().lists(), 2u);
  EXPECT_EQ(events_->updates(), (std::map<std::string, int>{{"ns/a", 1}}));
}

TEST_F(ReflectorFaultTest, TooLargeResourceVersionRelistsFromScratch) {
  List({Pod("a", 1)}, 10);
  Watch(ScriptedResponse::KubeStatus(504, "Timeout", "Too large resource version: 10, current: 4"));
  List({Pod("a", 1)}, 4);
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(2));
  auto lists = Requests(IsList);
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_FALSE(lists[1].QueryParam("resourceVersion").has_value()) << "relist must not pin an RV";
  EXPECT_EQ(Requests(IsWatch)[1].QueryParam("resourceVersion"), "4");
}

TEST_F(ReflectorFaultTest, WatchEndedByServerResumesWithoutRelist) {
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::Streamed(
      {StreamStep::Chunk(WatchEvent("MODIFIED", Pod("a", 3))), StreamStep::End()}));
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(informer_->reflector().lists(), 1u);
  EXPECT_EQ(Requests(IsWatch)[1].QueryParam("resourceVersion"), "3");
  EXPECT_EQ(Requests(IsWatch)[0].QueryParam("allowWatchBookmarks"), "true");
  EXPECT_TRUE(Requests(IsWatch)[0].QueryParam("timeoutSeconds").has_value());
}

TEST_F(ReflectorFaultTest, BookmarksAdvanceResourceVersionButNeverReachHandlers) {
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::Streamed(
      {StreamStep::Chunk(WatchEvent("BOOKMARK", Bookmark(42))), StreamStep::End()}));
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(Requests(IsWatch)[1].QueryParam("resourceVersion"), "42");
  EXPECT_EQ(events_->adds(), (std::map<std::string, int>{{"ns/a", 1}}));
  EXPECT_TRUE(events_->updates().empty());
  EXPECT_EQ(informer_->store().Size(), 1u);
}

TEST_F(ReflectorFaultTest, CutChunksTruncatedLinesAndGarbageNeverCrashAndResume) {
  List({Pod("a", 1)}, 1);
  std::string line = WatchEvent("ADDED", Pod("b", 2));
  // A chunk header promising more than is sent, then the connection drops.
  Watch(ScriptedResponse::Streamed({StreamStep::Chunk(line.substr(0, 20)),
                                    StreamStep::RawBytes("400\r\n" + line.substr(20, 10)),
                                    StreamStep::CloseAbruptly()}));
  Watch(ScriptedResponse::Streamed({StreamStep::Chunk("this is not json\n"), StreamStep::End()}));
  Watch(ScriptedResponse::Streamed(
      {StreamStep::Chunk("{\"type\":\"ADDED\",\"object\":{\"metadata\":"),
       StreamStep::CloseAbruptly(CloseHow::kReset)}));
  Watch(ScriptedResponse::Streamed({StreamStep::Chunk(line), StreamStep::End()}));
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(5));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/b"}));
  EXPECT_EQ(events_->adds(), (std::map<std::string, int>{{"ns/a", 1}, {"ns/b", 1}}));
  EXPECT_EQ(informer_->reflector().lists(), 1u) << "broken streams resume from the last RV";
  auto watches = Requests(IsWatch);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(watches[i].QueryParam("resourceVersion"), "1") << "watch " << i;
  EXPECT_EQ(watches[4].QueryParam("resourceVersion"), "2")
      << "after the event that finally arrived";
}

TEST_F(ReflectorFaultTest, ServerErrorsBackOffWithinBounds) {
  server_->AddRoute(Route::Where("GET", IsList),
                    {ScriptedResponse::KubeStatus(503, "ServiceUnavailable", "down")});
  StartInformer();
  ASSERT_TRUE(WaitFor("six list attempts", 10s, [&] { return Requests(IsList).size() >= 6; }).ok());
  auto lists = Requests(IsList);
  // Delays 50, 100, 200, 400, 400 ms, each stretched by up to 1.5x jitter.
  const double base_ms[] = {50, 100, 200, 400, 400};
  for (size_t i = 0; i + 1 < 6; ++i) {
    double gap =
        std::chrono::duration<double, std::milli>(lists[i + 1].arrived_at - lists[i].arrived_at)
            .count();
    EXPECT_GE(gap, base_ms[i] * 0.95) << "attempt " << i + 1;
    EXPECT_LE(gap, base_ms[i] * 1.5 + 250) << "attempt " << i + 1;
  }
  EXPECT_FALSE(informer_->HasSynced());
}

TEST_F(ReflectorFaultTest, ForbiddenIsRetriedWithBackoffNotInAHotLoop) {
  server_->AddRoute(Route::Where("GET", IsList),
                    {ScriptedResponse::KubeStatus(403, "Forbidden", "RBAC: no")});
  StartInformer();
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(WaitFor("three attempts", 10s, [&] { return Requests(IsList).size() >= 3; }).ok());
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 140ms) << "two backoffs (50 + 100 ms) must separate three attempts";
  informer_->Stop();
  EXPECT_EQ(RequestsCounted("403"), static_cast<double>(Requests(IsList).size()))
      << "every refused request is visible in rest_client_requests_total{code=\"403\"}";
}

TEST_F(ReflectorFaultTest, ItemsNestedWithinTheApiserverLimitAreListed) {
  List({Pod("a", 1), DeepPod("b", 2, 1100), DeepPod("c", 3, 9000)}, 3);
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(informer_->WaitForSync(10s)) << "a page with deep items must still sync";
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/b", "ns/c"}));
  EXPECT_EQ(informer_->reflector().decode_errors(), 0u);
}

TEST_F(ReflectorFaultTest, UndecodableListItemIsSkippedNotThePage) {
  List({Pod("a", 1), DeepPod("b", 2, 12000), Pod("c", 3)}, 3);
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(informer_->WaitForSync(10s)) << "one bad item must not keep the cache unsynced";
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/c"}));
  EXPECT_EQ(informer_->reflector().decode_errors(), 1u);
  EXPECT_EQ(Counted("reflector_decode_errors_total", "resource", "pods"), 1);
  EXPECT_EQ(informer_->reflector().lists(), 1u);
}

TEST_F(ReflectorFaultTest, DeepWatchEventsAreAppliedAndUndecodableOnesPassedOver) {
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::Streamed(
      {StreamStep::Chunk(WatchEvent("ADDED", DeepPod("b", 2, 1100))),
       StreamStep::Chunk(WatchEvent("MODIFIED", DeepPod("a", 3, 12000))),
       StreamStep::Chunk(WatchEvent("ADDED", Pod("c", 4))), StreamStep::End()}));
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/b", "ns/c"}))
      << "the version of ns/a that cannot be decoded must not leave the old one cached";
  EXPECT_EQ(events_->deletes(), (std::map<std::string, int>{{"ns/a", 1}}));
  EXPECT_EQ(informer_->reflector().decode_errors(), 1u);
  EXPECT_EQ(informer_->reflector().lists(), 1u);
  EXPECT_EQ(Requests(IsWatch)[1].QueryParam("resourceVersion"), "4")
      << "the watch moves past the bad event instead of replaying it";
}

TEST_F(ReflectorFaultTest, UnreadableLineReplayedAtTheSamePlaceRelistsInsteadOfLooping) {
  // No metadata to read: the reflector cannot tell which event it was.
  std::string unreadable = WatchEvent("ADDED", R"({"spec":)" + Nested(12000) + "}");
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::Streamed({StreamStep::Chunk(unreadable), StreamStep::End()}));
  Watch(ScriptedResponse::Streamed({StreamStep::Chunk(unreadable), StreamStep::End()}));
  List({Pod("a", 1)}, 7);
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(3));
  EXPECT_EQ(informer_->reflector().lists(), 2u);
  EXPECT_EQ(Requests(IsWatch)[2].QueryParam("resourceVersion"), "7");
}

TEST_F(ReflectorFaultTest, OverlongWatchLineIsSkippedWithoutHoldingIt) {
  options_.max_watch_line_bytes = 256 * 1024;
  std::string big = WatchEvent("ADDED", BigPod("b", 2, 1024 * 1024));
  std::vector<StreamStep> steps;
  for (size_t at = 0; at < big.size(); at += 64 * 1024) {
    steps.push_back(StreamStep::Chunk(big.substr(at, 64 * 1024)));
  }
  steps.push_back(StreamStep::Chunk(WatchEvent("ADDED", Pod("c", 3))));
  steps.push_back(StreamStep::End());
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::Streamed(std::move(steps)));
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(CachedKeys(), (std::set<std::string>{"ns/a", "ns/c"}));
  EXPECT_EQ(informer_->reflector().decode_errors(), 1u);
  EXPECT_EQ(informer_->reflector().lists(), 1u);
}

TEST_F(ReflectorFaultTest, LargeDocumentDoesNotKeepTheDecoderLarge) {
  List({Pod("a", 1)}, 1);
  Watch(ScriptedResponse::Streamed(
      {StreamStep::Chunk(WatchEvent("ADDED", BigPod("b", 2, 3 * 1024 * 1024))),
       StreamStep::Chunk(WatchEvent("ADDED", Pod("c", 3))),
       StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(WaitFor("ns/c cached", 10s, [&] { return CachedKeys().count("ns/c") == 1; }).ok());
  EXPECT_EQ(CachedKeys().count("ns/b"), 1u);
  EXPECT_LE(informer_->reflector().decoder_capacity(), kube::WatchDecoder::kRetainedCapacity);
}

// A LIST page is far larger than a watch event: once the list is applied,
// the decoder goes back to its initial buffers instead of keeping the
// page's (about 15 bytes per byte of page) for the life of the watch.
TEST_F(ReflectorFaultTest, ListPageDoesNotKeepTheDecoderLarge) {
  List({BigPod("a", 1, 512 * 1024), Pod("b", 1)}, 1);
  Watch(ScriptedResponse::Streamed({StreamStep::Chunk(WatchEvent("ADDED", Pod("c", 2))),
                                    StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(WaitFor("ns/c cached", 10s, [&] { return CachedKeys().count("ns/c") == 1; }).ok());
  EXPECT_EQ(CachedKeys().count("ns/a"), 1u);
  EXPECT_EQ(informer_->reflector().decoder_capacity(), kube::WatchDecoder::kInitialCapacity);
}

TEST_F(ReflectorFaultTest, RepeatedGoneRelistsBackOff) {
  server_->AddRoute(Route::Where("GET", IsList), {ScriptedResponse::Json(200, PodList({}, 5))});
  server_->AddRoute(Route::Where("GET", IsWatch),
                    {ScriptedResponse::KubeStatus(410, "Expired", "too old resource version")});
  StartInformer();
  std::this_thread::sleep_for(1s);
  informer_->Stop();
  // Backoff 50, 100, 200, 400 ms (each stretched up to 2x): at most five
  // lists fit in a second. Relisting at once would make it hundreds.
  EXPECT_LE(Requests(IsList).size(), 5u);
  EXPECT_GE(Requests(IsList).size(), 3u);
}

// A stream that keeps the connection busy with a byte a second but never
// completes an event: the transport's idle timeout never fires, so only
// counting complete events can tell that the cache no longer follows.
// Readiness reports it first; at its deadline the watch is cut and, since
// it was sending bytes, the reflector relists.
TEST_F(ReflectorFaultTest, AWatchTricklingBytesWithoutEventsIsCutAndRelisted) {
  options_.watch_ready_timeout = 1s;
  options_.watch_progress_timeout = 3s;
  List({Pod("a", 1)}, 1);
  std::string never_finished = WatchEvent("MODIFIED", Pod("a", 2));
  never_finished.pop_back();  // no newline: the event never completes
  std::vector<StreamStep> trickle;
  for (char c : never_finished.substr(0, 30)) {
    trickle.push_back(StreamStep::Chunk(std::string(1, c)));
    trickle.push_back(StreamStep::Pause(1s));
  }
  Watch(ScriptedResponse::Streamed(trickle));
  List({Pod("a", 3)}, 3);
  Watch(IdleWatch());
  auto began = std::chrono::steady_clock::now();
  StartInformer();
  ASSERT_TRUE(WaitForWatches(1));
  kube::Status stalled;
  EXPECT_TRUE(WaitFor("readiness to report the stalled watch", TestTime::Scaled(3s), [&] {
                stalled = informer_->reflector().CheckWatchProgress();
                return !stalled.ok();
              }).ok());
  EXPECT_EQ(informer_->reflector().lists(), 1u) << "reported while the watch still trickles";
  EXPECT_NE(stalled.message().find("pods: watch delivered no complete event for"),
            std::string::npos)
      << stalled.ToString();
  ASSERT_TRUE(WaitFor("the relist", TestTime::Scaled(6s), [&] {
                return informer_->reflector().lists() >= 2;
              }).ok());
  auto took = std::chrono::steady_clock::now() - began;
  EXPECT_GE(took, 3s) << "cut at its deadline, not before";
  EXPECT_LT(took, 3s + TestTime::Scaled(2s)) << "cut at its deadline";
  EXPECT_EQ(informer_->reflector().stalled_watches(), 1u);
  ASSERT_TRUE(WaitForWatches(2));
  EXPECT_EQ(events_->updates(), (std::map<std::string, int>{{"ns/a", 1}}));
}

// The server ignores the timeoutSeconds the watch asked for and keeps it open
// with bookmarks: the client ends it past that time and a margin, and
// resumes from the last resourceVersion without relisting.
TEST_F(ReflectorFaultTest, AWatchOpenPastItsTimeoutIsCutAndResumed) {
  options_.min_watch_timeout = 1s;  // timeoutSeconds=1
  options_.watch_timeout_margin = 1s;
  List({Pod("a", 1)}, 1);
  std::vector<StreamStep> endless;
  for (int i = 0; i < 100; ++i) {
    endless.push_back(StreamStep::Chunk(WatchEvent("BOOKMARK", Bookmark(2 + i))));
    endless.push_back(StreamStep::Pause(100ms));
  }
  Watch(ScriptedResponse::Streamed(endless));
  Watch(IdleWatch());
  auto began = std::chrono::steady_clock::now();
  StartInformer();
  ASSERT_TRUE(WaitFor("the second watch", TestTime::Scaled(8s), [&] {
                return Requests(IsWatch).size() >= 2;
              }).ok());
  auto took = std::chrono::steady_clock::now() - began;
  EXPECT_GE(took, 2s) << "timeoutSeconds=1 and a 1 s margin";
  EXPECT_LT(took, 2s + TestTime::Scaled(2s));
  EXPECT_EQ(informer_->reflector().lists(), 1u);
  EXPECT_NE(Requests(IsWatch)[1].QueryParam("resourceVersion"), "1") << "resumed after bookmarks";
}

TEST_F(ReflectorFaultTest, WatchRequestsAreCountedLikeOtherRequests) {
  List({Pod("a", 1)}, 1);
  Watch(IdleWatch());
  StartInformer();
  ASSERT_TRUE(WaitForWatches(1));
  EXPECT_TRUE(WaitFor(
                  "list and watch counted", 10s, [&] { return RequestsCounted("200") >= 2; },
                  [&] { return std::to_string(RequestsCounted("200")); })
                  .ok());
}

}  // namespace
}  // namespace dra::testing
