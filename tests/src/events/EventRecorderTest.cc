// The event recorder against an in-memory Events API: creation, counting by
// PATCH, aggregation of similar events, the per-object spam filter, recovery
// from vanished Events and failed writes, and the queue's limits and shutdown.
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "src/base/FakeClock.h"
#include "src/events/EventRecorder.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr char kEventsPrefix[] = "/api/v1/namespaces/";

HttpResponse Answer(int status, const json& body) {
  HttpResponse response;
  response.status = status;
  response.body = body.dump();
  return response;
}

HttpResponse ApiError(int status, const std::string& reason, const std::string& message) {
  return Answer(status, {{"kind", "Status"},
                         {"apiVersion", "v1"},
                         {"status", "Failure"},
                         {"reason", reason},
                         {"message", message},
                         {"code", status}});
}

// A fake kube-apiserver that only knows core/v1 Events: POST creates, PATCH
// merges, both answer like the real one (201/200, 409 AlreadyExists, 404
// NotFound). A closed gate holds requests until it is opened, and failures
// can be scripted.
class FakeEventsApi : public HttpTransport {
 public:
  Result<HttpResponse> Send(const HttpRequest& request) override {
    WaitAtGate();
    std::lock_guard lock(mu_);
    requests_.push_back(request);
    if (failures_to_inject_ > 0) {
      --failures_to_inject_;
      return ApiError(500, "InternalError", "injected failure");
    }
    if (request.method == "POST") return CreateEvent(request);
    if (request.method == "PATCH") return PatchEvent(request);
    return ApiError(405, "MethodNotAllowed", request.method + " is not supported");
  }

  Status Stream(const HttpRequest&, StreamHandler&, CancelFlag&, std::chrono::seconds) override {
    return Status(StatusCode::kUnavailable, "the fake serves no watches");
  }

  void CloseGate() {
    std::lock_guard lock(gate_mu_);
    gate_open_ = false;
  }
  void OpenGate() {
    {
      std::lock_guard lock(gate_mu_);
      gate_open_ = true;
    }
    gate_cv_.notify_all();
  }
  int waiting_at_gate() const {
    std::lock_guard lock(gate_mu_);
    return waiting_;
  }

  void FailNextRequests(int n) {
    std::lock_guard lock(mu_);
    failures_to_inject_ = n;
  }
  void DeleteAllEvents() {
    std::lock_guard lock(mu_);
    events_.clear();
  }
  std::vector<HttpRequest> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  // Stored Events by "namespace/name".
  std::map<std::string, json> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  // Bounded, so that a failed test cannot hang its recorder's Stop forever.
  void WaitAtGate() {
    std::unique_lock lock(gate_mu_);
    ++waiting_;
    gate_cv_.wait_for(lock, std::chrono::seconds(30), [this] { return gate_open_; });
    --waiting_;
  }

  HttpResponse CreateEvent(const HttpRequest& request) {
    json event = json::parse(request.body, nullptr, false);
    if (!event.is_object()) return ApiError(400, "BadRequest", "body is not a JSON object");
    std::string ns = NamespaceOf(request.path);
    std::string key = ns + "/" + event["metadata"].value("name", "");
    if (events_.count(key) != 0) return ApiError(409, "AlreadyExists", key + " already exists");
    event["metadata"]["resourceVersion"] = std::to_string(++resource_version_);
    events_[key] = event;
    return Answer(201, event);
  }

  HttpResponse PatchEvent(const HttpRequest& request) {
    std::string key = NamespaceOf(request.path) + "/" + NameOf(request.path);
    auto it = events_.find(key);
    if (it == events_.end()) return ApiError(404, "NotFound", key + " not found");
    it->second.merge_patch(json::parse(request.body));
    it->second["metadata"]["resourceVersion"] = std::to_string(++resource_version_);
    return Answer(200, it->second);
  }

  // "/api/v1/namespaces/NS/events[/NAME]"
  static std::string NamespaceOf(const std::string& path) {
    size_t start = std::string(kEventsPrefix).size();
    return path.substr(start, path.find('/', start) - start);
  }
  static std::string NameOf(const std::string& path) {
    return path.substr(path.find("/events/") + std::string("/events/").size());
  }

  mutable std::mutex mu_;
  std::vector<HttpRequest> requests_;
  std::map<std::string, json> events_;
  int failures_to_inject_ = 0;
  int64_t resource_version_ = 0;

  mutable std::mutex gate_mu_;
  std::condition_variable gate_cv_;
  bool gate_open_ = true;
  int waiting_ = 0;
};

// A clock that moves only when told to, starting at 2026-11-30T03:00:00Z.
class EventClock : public FakeClock {
 public:
  EventClock()
      : FakeClock({}, std::chrono::system_clock::time_point(std::chrono::seconds(1796007600))) {}
  void Advance(Clock::Duration d) { Step(d); }
};

ObjectReference Pod(const std::string& name) {
  return {"v1", "Pod", "ns1", name, "uid-" + name, "7"};
}

json BodyOf(const HttpRequest& request) { return json::parse(request.body); }

class EventRecorderTest : public ::testing::Test {
 protected:
  std::unique_ptr<EventRecorder> NewRecorder(EventRecorderOptions options = {}) {
    options.host = "node-a";
    options.clock = clock_;
    return std::make_unique<EventRecorder>(std::make_shared<RestClient>(api_), "dra-controller",
                                           std::move(options));
  }

  // Waits until `n` writes have been attempted (successfully or not).
  void WaitForWrites(const EventRecorder& recorder, uint64_t n) {
    auto attempted = [&] {
      auto c = recorder.counters();
      return c.written() + c.write_errors;
    };
    Status s = dra::testing::WaitFor(
        std::to_string(n) + " event writes", 5s, [&] { return attempted() >= n; },
        [&] { return std::to_string(attempted()) + " writes"; });
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void WaitForRequestAtGate() {
    Status s = dra::testing::WaitFor("a request held at the gate", 5s,
                                     [&] { return api_->waiting_at_gate() == 1; });
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // The only stored Event, failing the test if there is not exactly one.
  json OnlyEvent() {
    auto events = api_->events();
    EXPECT_EQ(events.size(), 1u);
    return events.empty() ? json() : events.begin()->second;
  }

  std::shared_ptr<FakeEventsApi> api_ = std::make_shared<FakeEventsApi>();
  std::shared_ptr<EventClock> clock_ = std::make_shared<EventClock>();
};

TEST_F(EventRecorderTest, FirstEventIsCreatedWithCountOne) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 1);

  auto requests = api_->requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].path, "/api/v1/namespaces/ns1/events");
  json body = BodyOf(requests[0]);
  // client-go's naming: the object's name and the clock's nanoseconds in hex.
  EXPECT_EQ(body["metadata"]["name"], "pod-a.18ecb36583e6e000");
  EXPECT_EQ(body["metadata"]["namespace"], "ns1");
  EXPECT_EQ(body["involvedObject"], json({{"apiVersion", "v1"},
                                          {"kind", "Pod"},
                                          {"namespace", "ns1"},
                                          {"name", "pod-a"},
                                          {"uid", "uid-pod-a"},
                                          {"resourceVersion", "7"}}));
  EXPECT_EQ(body["type"], "Warning");
  EXPECT_EQ(body["reason"], "FailedPrepare");
  EXPECT_EQ(body["message"], "no free device");
  EXPECT_EQ(body["count"], 1);
  EXPECT_EQ(body["firstTimestamp"], "2026-11-30T03:00:00Z");
  EXPECT_EQ(body["lastTimestamp"], "2026-11-30T03:00:00Z");
  EXPECT_EQ(body["source"], json({{"component", "dra-controller"}, {"host", "node-a"}}));
  EXPECT_EQ(body["reportingComponent"], "dra-controller");
  EXPECT_EQ(body["reportingInstance"], "node-a");
  EXPECT_EQ(recorder->counters().created, 1u);
}

TEST_F(EventRecorderTest, IdenticalEventPatchesCountOfTheSameEvent) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 1);
  clock_->Advance(30s);
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 2);

  auto requests = api_->requests();
  ASSERT_EQ(requests.size(), 2u);
  std::string name = BodyOf(requests[0])["metadata"]["name"];
  EXPECT_EQ(requests[1].method, "PATCH");
  EXPECT_EQ(requests[1].path, "/api/v1/namespaces/ns1/events/" + name);
  EXPECT_EQ(requests[1].content_type, "application/strategic-merge-patch+json");
  EXPECT_EQ(BodyOf(requests[1]), json({{"count", 2},
                                       {"lastTimestamp", "2026-11-30T03:00:30Z"},
                                       {"message", "no free device"}}));

  json stored = OnlyEvent();
  EXPECT_EQ(stored["count"], 2);
  EXPECT_EQ(stored["firstTimestamp"], "2026-11-30T03:00:00Z");
  auto c = recorder->counters();
  EXPECT_EQ(c.created, 1u);
  EXPECT_EQ(c.patched, 1u);
}

TEST_F(EventRecorderTest, TenthDistinctMessageStartsOneCombinedEvent) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 11; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "Unschedulable",
                    "claim " + std::to_string(i) + " cannot be satisfied");
  }
  recorder->Stop(5s);

  std::map<std::string, int> counts_by_message;
  for (const auto& [key, event] : api_->events())
    counts_by_message[event["message"]] = event["count"];
  std::map<std::string, int> expected;
  for (int i = 0; i < 9; ++i) expected["claim " + std::to_string(i) + " cannot be satisfied"] = 1;
  expected["(combined from similar events): claim 10 cannot be satisfied"] = 2;
  EXPECT_EQ(counts_by_message, expected);
  EXPECT_EQ(recorder->counters().dropped_by_spam_filter, 0u);
}

TEST_F(EventRecorderTest, CombiningEndsAfterTenQuietMinutes) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 10; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "Unschedulable", "try " + std::to_string(i));
  }
  clock_->Advance(9min);
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "Unschedulable", "still combined");
  clock_->Advance(10min + 1s);
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "Unschedulable", "on its own again");
  recorder->Stop(5s);

  std::map<std::string, int> counts_by_message;
  for (const auto& [key, event] : api_->events())
    counts_by_message[event["message"]] = event["count"];
  EXPECT_EQ(counts_by_message.size(), 11u);
  EXPECT_EQ(counts_by_message["(combined from similar events): still combined"], 2);
  EXPECT_EQ(counts_by_message["on its own again"], 1);
}

TEST_F(EventRecorderTest, HotLoopWritesAtMostTheBurstForOneObject) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 1000; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  }
  recorder->Stop(5s);

  auto c = recorder->counters();
  EXPECT_EQ(c.dropped_by_spam_filter, 975u);
  EXPECT_GE(c.written(), 1u);
  EXPECT_LE(c.written(), 25u);
  EXPECT_LE(api_->requests().size(), 25u);
  EXPECT_EQ(c.created, 1u);
  EXPECT_EQ(c.write_errors, 0u);
  EXPECT_EQ(OnlyEvent()["count"], 25);
}

TEST_F(EventRecorderTest, HotLoopWithChangingMessagesIsCombinedAndLimited) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 1000; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "Retry", "attempt " + std::to_string(i));
  }
  recorder->Stop(5s);

  EXPECT_EQ(recorder->counters().dropped_by_spam_filter, 975u);
  EXPECT_LE(api_->requests().size(), 25u);
  // Nine single events, then the combined one, updated by the remaining accepted occurrences.
  auto events = api_->events();
  EXPECT_EQ(events.size(), 10u);
  int combined_count = 0;
  for (const auto& [key, event] : events) {
    if (event["message"] == "(combined from similar events): attempt 24") {
      combined_count = event["count"];
    }
  }
  EXPECT_EQ(combined_count, 16) << "occurrences 10..25 of the group";
}

TEST_F(EventRecorderTest, SpamLimitOfOneObjectDoesNotAffectAnother) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 30; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  }
  recorder->Event(Pod("pod-b"), kEventTypeWarning, "FailedPrepare", "no free device");
  recorder->Stop(5s);

  EXPECT_EQ(recorder->counters().dropped_by_spam_filter, 5u);
  std::map<std::string, int> counts_by_object;
  for (const auto& [key, event] : api_->events()) {
    counts_by_object[event["involvedObject"]["name"]] = event["count"];
  }
  EXPECT_EQ(counts_by_object, (std::map<std::string, int>{{"pod-a", 25}, {"pod-b", 1}}));
}

TEST_F(EventRecorderTest, SpamBudgetIsKeptPerEventTypeLikeClientGo) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 30; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  }
  recorder->Event(Pod("pod-a"), kEventTypeNormal, "Prepared", "device ready");
  recorder->Stop(5s);

  EXPECT_EQ(recorder->counters().dropped_by_spam_filter, 5u);
  EXPECT_EQ(api_->events().size(), 2u);
}

TEST_F(EventRecorderTest, SpamBudgetRefillsOneEventPerFiveMinutes) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 26; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  }
  clock_->Advance(4min);
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  EXPECT_EQ(recorder->counters().dropped_by_spam_filter, 2u);

  clock_->Advance(1min);
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  recorder->Stop(5s);

  EXPECT_EQ(recorder->counters().dropped_by_spam_filter, 3u);
  // The count written after the refill includes the occurrences the filter dropped.
  json stored = OnlyEvent();
  EXPECT_EQ(stored["count"], 28);
  EXPECT_EQ(stored["lastTimestamp"], "2026-11-30T03:05:00Z");
}

TEST_F(EventRecorderTest, PatchOfVanishedEventCreatesItAgain) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 1);
  api_->DeleteAllEvents();  // as if its TTL expired
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 2);

  auto requests = api_->requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].method, "PATCH");
  EXPECT_EQ(requests[2].method, "POST");
  json recreated = BodyOf(requests[2]);
  EXPECT_EQ(recreated["metadata"]["name"], BodyOf(requests[0])["metadata"]["name"]);
  EXPECT_EQ(recreated["count"], 2);
  EXPECT_EQ(OnlyEvent()["count"], 2);
  auto c = recorder->counters();
  EXPECT_EQ(c.created, 2u);
  EXPECT_EQ(c.write_errors, 0u);
}

TEST_F(EventRecorderTest, FailedWriteIsCountedAndRepairedByTheNextOccurrence) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  api_->FailNextRequests(1);
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 1);
  EXPECT_EQ(recorder->counters().write_errors, 1u);
  EXPECT_TRUE(api_->events().empty());

  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForWrites(*recorder, 2);
  EXPECT_EQ(OnlyEvent()["count"], 2);
  EXPECT_EQ(recorder->counters().created, 1u);
}

TEST_F(EventRecorderTest, WritesOfOneEventCoalesceWhileWaiting) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  api_->CloseGate();
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  WaitForRequestAtGate();
  for (int i = 0; i < 10; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  }
  api_->OpenGate();
  recorder->Stop(5s);

  auto requests = api_->requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[1].method, "PATCH");
  EXPECT_EQ(BodyOf(requests[1])["count"], 11);
}

TEST_F(EventRecorderTest, StopFlushesPendingEvents) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  api_->CloseGate();
  for (int i = 0; i < 5; ++i) {
    recorder->Event(Pod("pod-" + std::to_string(i)), kEventTypeNormal, "Prepared", "ready");
  }
  WaitForRequestAtGate();
  auto stopped = std::async(std::launch::async, [&] { recorder->Stop(10s); });
  api_->OpenGate();
  ASSERT_EQ(stopped.wait_for(10s), std::future_status::ready);

  auto c = recorder->counters();
  EXPECT_EQ(c.created, 5u);
  EXPECT_EQ(c.dropped_on_stop, 0u);
  EXPECT_EQ(api_->events().size(), 5u);
}

TEST_F(EventRecorderTest, StopDropsWhatIsStillQueuedAtItsDeadline) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  api_->CloseGate();
  for (int i = 0; i < 3; ++i) {
    recorder->Event(Pod("pod-" + std::to_string(i)), kEventTypeNormal, "Prepared", "ready");
  }
  WaitForRequestAtGate();
  auto stopped = std::async(std::launch::async, [&] { recorder->Stop(50ms); });
  Status dropped = dra::testing::WaitFor("queued events dropped at the deadline", 5s,
                                         [&] { return recorder->counters().dropped_on_stop == 2; });
  api_->OpenGate();  // lets the write in flight finish, so Stop can join
  ASSERT_EQ(stopped.wait_for(10s), std::future_status::ready);
  ASSERT_TRUE(dropped.ok()) << dropped.ToString();
  EXPECT_EQ(recorder->counters().created, 1u);
  EXPECT_EQ(api_->requests().size(), 1u);
}

TEST_F(EventRecorderTest, FullQueueDropsAndCountsNewEventObjects) {
  EventRecorderOptions options;
  options.queue_capacity = 3;
  auto recorder = NewRecorder(options);  // not started: nothing drains the queue
  for (int i = 0; i < 5; ++i) {
    recorder->Event(Pod("pod-" + std::to_string(i)), kEventTypeNormal, "Prepared", "ready");
  }
  EXPECT_EQ(recorder->counters().dropped_queue_full, 2u);
  // A further occurrence of a queued Event replaces its queued write instead of needing a slot.
  recorder->Event(Pod("pod-0"), kEventTypeNormal, "Prepared", "ready");
  EXPECT_EQ(recorder->counters().dropped_queue_full, 2u);

  ASSERT_TRUE(recorder->Start().ok());
  recorder->Stop(5s);
  auto c = recorder->counters();
  EXPECT_EQ(c.created, 3u);
  EXPECT_EQ(c.patched, 0u);
  std::map<std::string, int> counts_by_object;
  for (const auto& [key, event] : api_->events()) {
    counts_by_object[event["involvedObject"]["name"]] = event["count"];
  }
  EXPECT_EQ(counts_by_object,
            (std::map<std::string, int>{{"pod-0", 2}, {"pod-1", 1}, {"pod-2", 1}}));
}

TEST_F(EventRecorderTest, EventsAfterStopAreDroppedAndCountedAndRestartIsRefused) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Stop(5s);
  recorder->Event(Pod("pod-a"), kEventTypeNormal, "Prepared", "ready");
  EXPECT_EQ(recorder->counters().dropped_on_stop, 1u);
  EXPECT_TRUE(api_->requests().empty());
  EXPECT_EQ(recorder->Start().code(), StatusCode::kInvalidArgument) << "no restart after Stop";
}

TEST_F(EventRecorderTest, ClusterScopedObjectsGetEventsInDefaultNamespace) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  ObjectReference slice{"resource.k8s.io/v1", "ResourceSlice", "", "node-a-gpu", "uid-1", ""};
  recorder->Event(slice, kEventTypeNormal, "Published", "4 devices");
  WaitForWrites(*recorder, 1);

  auto requests = api_->requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/api/v1/namespaces/default/events");
  json body = BodyOf(requests[0]);
  EXPECT_EQ(body["metadata"]["namespace"], "default");
  EXPECT_FALSE(body["involvedObject"].contains("namespace"));
  EXPECT_EQ(body["involvedObject"]["kind"], "ResourceSlice");
}

TEST_F(EventRecorderTest, EventNamesStayUniqueWhenTheClockRepeats) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Event(Pod("pod-a"), kEventTypeNormal, "Prepared", "ready");
  recorder->Event(Pod("pod-a"), kEventTypeNormal, "Unprepared", "released");
  recorder->Stop(5s);

  auto events = api_->events();
  ASSERT_EQ(events.size(), 2u);
  for (const auto& [key, event] : events) {
    EXPECT_EQ(std::string(event["metadata"]["name"]).rfind("pod-a.", 0), 0u) << key;
  }
}

TEST_F(EventRecorderTest, UnsuitableNamesAreReplacedByRandomOnes) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  ObjectReference odd{"v1", "Node", "", "Node_With_Capitals", "uid-1", ""};
  recorder->Event(odd, kEventTypeNormal, "Seen", "hello");
  WaitForWrites(*recorder, 1);
  EXPECT_EQ(recorder->counters().created, 1u);
  std::string name = OnlyEvent()["metadata"]["name"];
  EXPECT_EQ(name.size(), 32u);
  EXPECT_EQ(name.find_first_not_of("0123456789abcdef"), std::string::npos) << name;
}

TEST_F(EventRecorderTest, UnknownEventTypeIsRefused) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Event(Pod("pod-a"), "Error", "Broken", "not a valid type");
  recorder->Stop(5s);
  EXPECT_TRUE(api_->requests().empty());
  auto c = recorder->counters();
  EXPECT_EQ(c.written() + c.dropped_by_spam_filter + c.dropped_queue_full + c.dropped_on_stop, 0u);
}

TEST_F(EventRecorderTest, MessagesAreCutAndMadeValidUtf8) {
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->Start().ok());
  recorder->Event(Pod("pod-a"), kEventTypeWarning, "Long", std::string(1023, 'x') + "\xC3\xA9");
  recorder->Event(Pod("pod-b"), kEventTypeWarning, "Binary", "bad byte \xFF here");
  recorder->Stop(5s);

  EXPECT_EQ(recorder->counters().created, 2u);
  for (const auto& [key, event] : api_->events()) {
    std::string message = event["message"];
    if (event["reason"] == "Long") {
      EXPECT_EQ(message, std::string(1023, 'x')) << "a two-byte character is not split";
    } else {
      EXPECT_EQ(message, "bad byte \xEF\xBF\xBD here");
    }
  }
}

TEST_F(EventRecorderTest, ExportsPrometheusCountersByTypeAndResult) {
  auto registry = std::make_shared<prometheus::Registry>();
  EventRecorderOptions options;
  options.registry = registry;
  auto recorder = NewRecorder(options);
  ASSERT_TRUE(recorder->Start().ok());
  for (int i = 0; i < 27; ++i) {
    recorder->Event(Pod("pod-a"), kEventTypeWarning, "FailedPrepare", "no free device");
  }
  recorder->Stop(5s);

  std::map<std::string, double> values;  // "type/result" -> value
  for (const auto& family : registry->Collect()) {
    if (family.name != "event_recorder_events_total") continue;
    for (const auto& metric : family.metric) {
      std::string type, result;
      for (const auto& label : metric.label) {
        if (label.name == "type") type = label.value;
        if (label.name == "result") result = label.value;
      }
      values[type + "/" + result] = metric.counter.value;
    }
  }
  auto c = recorder->counters();
  EXPECT_EQ(values["Warning/created"], 1);
  EXPECT_EQ(values["Warning/patched"], static_cast<double>(c.patched));
  EXPECT_EQ(values["Warning/spam_filtered"], 2);
}

}  // namespace
}  // namespace kube
