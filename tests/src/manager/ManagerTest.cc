#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "src/base/FakeClock.h"
#include "src/manager/FunctionRunnable.h"
#include "src/manager/Manager.h"
#include "tests/support/SettlingClock.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using dra::testing::WaitFor;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A fake kube-apiserver behind the transport seam: /version, discovery of the
// configured group-versions, an empty LIST of anything, and watches that
// stay open until cancelled; watch-lists are refused (422), so informers
// list. `serve_group` can be switched on later.
class FakeApiServer : public HttpTransport {
 public:
  Result<HttpResponse> Send(const HttpRequest& request) override {
    if (request.path.find("/leases") != std::string::npos) {
      std::unique_lock lock(mu_);
      ++lease_requests_;
      changed_.wait(lock, [this] { return !hang_leases_; });  // a wedged lease request
      return Json(503, R"({"kind":"Status","code":503})");
    }
    std::lock_guard lock(mu_);
    ++requests_;
    if (Forbidden(request.path)) return Json(403, ForbiddenBody());
    if (request.path == "/version") return Json(200, R"({"gitVersion":"v1.37.2"})");
    if (request.path == "/apis/example.com/v1") {
      ++discoveries_;
      if (!serve_group_) return Json(404, R"({"kind":"Status","reason":"NotFound","code":404})");
      return Json(200, R"({"resources":[{"name":"widgets"}]})");
    }
    return Json(200,
                R"({"kind":"List","metadata":{"resourceVersion":"7"},"items":[)" + items_ + "]}");
  }

  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds) override {
    if (request.path.find("sendInitialEvents=true") != std::string::npos) {
      HttpResponse refused;  // as kube-apiserver with the WatchList feature gate off
      refused.status = 422;
      handler.OnHead(refused);
      return Status::Ok();
    }
    std::unique_lock lock(mu_);
    if (Forbidden(request.path)) {
      HttpResponse denied;
      denied.status = 403;
      handler.OnHead(denied);
      handler.OnData(ForbiddenBody());
      return Status::Ok();
    }
    ++watches_;
    if (fail_watches_) return Status(StatusCode::kUnavailable, "connection refused");
    HttpResponse head;
    head.status = 200;
    handler.OnHead(head);
    // Open until cancelled or failed; deaf to its idle timeout, like a
    // half-open connection without one.
    while (!cancel.cancelled() && !fail_watches_) changed_.wait_for(lock, milliseconds(5));
    if (fail_watches_) return Status(StatusCode::kUnavailable, "connection reset");
    return Status(StatusCode::kCancelled, "cancelled");
  }

  void FailWatches(bool fail) {
    std::lock_guard lock(mu_);
    fail_watches_ = fail;
    changed_.notify_all();
  }
  // Requests whose path has `/plural` are answered 403, as kube-apiserver
  // answers a service account without the RBAC rule; "" forbids nothing.
  void Forbid(std::string plural) {
    std::lock_guard lock(mu_);
    forbidden_ = plural.empty() ? "" : "/" + std::move(plural);
  }
  int denials() const {
    std::lock_guard lock(mu_);
    return denials_;
  }
  void HangLeases(bool hang) {
    std::lock_guard lock(mu_);
    hang_leases_ = hang;
    changed_.notify_all();
  }
  int watches() const {
    std::lock_guard lock(mu_);
    return watches_;
  }
  int lease_requests() const {
    std::lock_guard lock(mu_);
    return lease_requests_;
  }

  void ServeGroup(bool serve) {
    std::lock_guard lock(mu_);
    serve_group_ = serve;
  }
  void SetItems(std::string items) {
    std::lock_guard lock(mu_);
    items_ = std::move(items);
  }
  int discoveries() const {
    std::lock_guard lock(mu_);
    return discoveries_;
  }

 private:
  bool Forbidden(const std::string& path) {
    if (forbidden_.empty() || path.find(forbidden_) == std::string::npos) return false;
    ++denials_;
    return true;
  }
  std::string ForbiddenBody() const {
    return R"({"kind":"Status","code":403,"reason":"Forbidden","message":"user cannot list )"
           R"(resource \")" +
           forbidden_.substr(1) + R"(\" in API group \"example.com\""})";
  }

  static HttpResponse Json(int status, std::string body) {
    HttpResponse response;
    response.status = status;
    response.headers["content-type"] = "application/json";
    response.body = std::move(body);
    return response;
  }

  mutable std::mutex mu_;
  std::condition_variable changed_;
  bool fail_watches_ = false;
  bool hang_leases_ = false;
  int watches_ = 0;
  int lease_requests_ = 0;
  bool serve_group_ = true;
  std::string items_;
  std::string forbidden_;
  int denials_ = 0;
  int requests_ = 0;
  int discoveries_ = 0;
};

struct Widget {
  ObjectMeta meta;
};

const ResourceType kWidgets{"example.com", "v1", "widgets", false, "Widget"};
const ResourceType kGadgets{"example.com", "v1", "gadgets", false, "Gadget"};

Result<Widget> ProjectWidget(simdjson::dom::element object) {
  auto meta = ObjectMeta::FromObject(object);
  if (!meta.ok()) return meta.status();
  return Widget{std::move(*meta)};
}

// Records the order in which things happen across the test's runnables.
class Journal {
 public:
  void Add(std::string entry) {
    std::lock_guard lock(mu_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> entries() const {
    std::lock_guard lock(mu_);
    return entries_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> entries_;
};

class RecordingReconciler : public Reconciler {
 public:
  ReconcileResult Reconcile(const std::string& key) override {
    std::lock_guard lock(mu_);
    keys_.push_back(key);
    return ReconcileResult::Done();
  }
  std::vector<std::string> keys() const {
    std::lock_guard lock(mu_);
    return keys_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> keys_;
};

class ManagerTest : public ::testing::Test {
 protected:
  ManagerOptions Options() {
    ManagerOptions options;
    options.metrics_bind_address = "127.0.0.1:0";
    options.health_probe_bind_address = "127.0.0.1:0";
    options.discover = {"example.com/v1"};
    options.required = {"example.com/v1"};
    options.connect_backoff.initial = milliseconds(10);
    options.connect_backoff.max = milliseconds(20);
    options.transport_factory = [this](const RestConfig&) {
      return Result<std::unique_ptr<HttpTransport>>(std::make_unique<Forwarder>(api_));
    };
    return options;
  }

  RestConfig Config() {
    RestConfig config;
    config.server = "https://fake.invalid";
    return config;
  }

  // Each client gets its own transport object; all of them reach `api_`.
  class Forwarder : public HttpTransport {
   public:
    explicit Forwarder(std::shared_ptr<FakeApiServer> api) : api_(std::move(api)) {}
    Result<HttpResponse> Send(const HttpRequest& r) override { return api_->Send(r); }
    Status Stream(const HttpRequest& r, StreamHandler& h, CancelFlag& c,
                  std::chrono::seconds t) override {
      return api_->Stream(r, h, c, t);
    }

   private:
    std::shared_ptr<FakeApiServer> api_;
  };

  std::unique_ptr<Runnable> Step(
      const std::string& name, bool leader_only,
      std::optional<std::vector<InformerDependency>> waits_for = std::nullopt) {
    return std::make_unique<FunctionRunnable>(
        name, leader_only,
        [this, name] {
          journal_.Add("start " + name);
          return Status::Ok();
        },
        [this, name] { journal_.Add("stop " + name); }, std::move(waits_for));
  }

  bool Journaled(const std::string& entry) const {
    auto entries = journal_.entries();
    return std::find(entries.begin(), entries.end(), entry) != entries.end();
  }

  // Widgets (served) and gadgets (forbidden while the test says so), and
  // runnables that wait for one, the other, or (saying nothing) both.
  void WireWidgetsAndGadgets(Manager& m) {
    auto widgets = InformerDependency::On(m.informers().Get<Widget>(kWidgets, ProjectWidget));
    auto gadgets = InformerDependency::On(m.informers().Get<Widget>(kGadgets, ProjectWidget));
    m.Add(Step("widget-reader", false, std::vector{widgets}));
    m.Add(Step("widget-writer", true, std::vector{widgets}));
    m.Add(Step("gadget-reader", false, std::vector{gadgets}));
    m.Add(Step("gadget-writer", true, std::vector{gadgets}));
    m.Add(Step("all-reader", false));
    m.Add(Step("free-writer", true, std::vector<InformerDependency>{}));
  }

  // GET of a probe path on the manager's probe server: {status, body}.
  static std::pair<int, std::string> Probe(const Manager& manager, const std::string& path) {
    RestConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(manager.health_port());
    config.request_timeout = seconds(5);
    auto transport = HttpTransport::Create(config);
    if (!transport.ok()) return {-1, transport.status().ToString()};
    HttpRequest request;
    request.path = path;
    auto response = (*transport)->Send(request);
    if (!response.ok()) return {-1, response.status().ToString()};
    return {response->status, response->body};
  }

  static Status WireWidgets(Manager& m, const ApiDiscovery&) {
    m.informers().Get<Widget>(kWidgets, ProjectWidget);
    return Status::Ok();
  }

  std::shared_ptr<FakeApiServer> api_ = std::make_shared<FakeApiServer>();
  Journal journal_;
};

// A reflector stuck in a watch that never ends (no data, no bookmark, its
// idle timeout not honoured) is wedged: /healthz must fail so the kubelet
// restarts the process.
TEST_F(ManagerTest, HealthzFailsWhenAReflectorIsWedged) {
  auto clock = std::make_shared<FakeClock>();
  auto options = Options();
  options.clock = clock;
  Manager manager(Config(), options);
  manager.SetWiring(WireWidgets);
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("ready", seconds(10), [&] { return manager.ready(); }).ok());
  ASSERT_TRUE(WaitFor("the watch", seconds(10), [&] { return api_->watches() == 1; }).ok());
  clock->Step(std::chrono::seconds(300));
  EXPECT_EQ(Probe(manager, "/healthz").first, 200) << Probe(manager, "/healthz").second;
  clock->Step(std::chrono::seconds(2));
  auto [status, body] = Probe(manager, "/healthz");
  EXPECT_EQ(status, 503) << body;
  EXPECT_NE(body.find("[-]informers failed: "), std::string::npos) << body;
  EXPECT_NE(body.find("widgets.example.com: reflector made no progress for 302 s"),
            std::string::npos)
      << body;
}

// The API server goes away after the caches synced: the reflector keeps
// retrying (healthy, no restart) but readiness fails once no list or watch
// has succeeded for 5 min, and comes back with the first successful watch.
TEST_F(ManagerTest, ReadinessFollowsTheCachesFreshness) {
  auto clock = std::make_shared<dra::testing::SettlingClock>();
  auto options = Options();
  options.clock = clock;
  Manager manager(Config(), options);
  manager.SetWiring(WireWidgets);
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("ready", seconds(10), [&] { return manager.ready(); }).ok());
  ASSERT_TRUE(WaitFor("the watch", seconds(10), [&] { return api_->watches() == 1; }).ok());
  api_->FailWatches(true);        // the watch ends; the reflector backs off on `clock`
  for (int i = 0; i < 28; ++i) {  // 4 min 40 s
    ASSERT_TRUE(clock->StepAndSettle(seconds(10)).ok());
  }
  EXPECT_EQ(Probe(manager, "/readyz").first, 200) << Probe(manager, "/readyz").second;
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(clock->StepAndSettle(seconds(10)).ok());
  auto [ready_status, ready_body] = Probe(manager, "/readyz");
  EXPECT_EQ(ready_status, 503) << ready_body;
  EXPECT_NE(ready_body.find("[-]informers-synced failed: widgets.example.com: no successful list "
                            "or watch for"),
            std::string::npos)
      << ready_body;
  EXPECT_EQ(Probe(manager, "/healthz").first, 200) << Probe(manager, "/healthz").second;
  EXPECT_GE(api_->watches(), 6) << "the reflector kept retrying";

  api_->FailWatches(false);
  int watches = api_->watches();
  clock->Step(seconds(61));  // past any backoff
  ASSERT_TRUE(
      WaitFor("a successful watch", seconds(10), [&] { return api_->watches() > watches; }).ok());
  EXPECT_TRUE(
      WaitFor("ready again", seconds(10), [&] { return Probe(manager, "/readyz").first == 200; })
          .ok())
      << Probe(manager, "/readyz").second;
}

// A watch the server accepted that then delivers no complete event (here
// nothing at all; a trickle of bytes is the same) leaves the cache behind:
// readiness fails after two missed bookmarks, naming the informer, while the
// process stays live.
TEST_F(ManagerTest, ReadinessFailsWhileAWatchDeliversNoEvents) {
  auto clock = std::make_shared<FakeClock>();
  auto options = Options();
  options.clock = clock;
  Manager manager(Config(), options);
  manager.SetWiring(WireWidgets);
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("ready", seconds(10), [&] { return manager.ready(); }).ok());
  ASSERT_TRUE(WaitFor("the watch", seconds(10), [&] { return api_->watches() == 1; }).ok());
  clock->Step(seconds(120));
  EXPECT_EQ(Probe(manager, "/readyz").first, 200) << Probe(manager, "/readyz").second;
  clock->Step(seconds(2));
  auto [status, body] = Probe(manager, "/readyz");
  EXPECT_EQ(status, 503) << body;
  EXPECT_NE(body.find("[-]informers-watching failed: widgets.example.com: watch delivered no "
                      "complete event for 122000 ms"),
            std::string::npos)
      << body;
  EXPECT_EQ(Probe(manager, "/healthz").first, 200) << Probe(manager, "/healthz").second;
}

// The elector's loop is stuck in a lease request that never returns.
TEST_F(ManagerTest, HealthzFailsWhenTheLeaderElectionLoopIsWedged) {
  api_->HangLeases(true);
  auto clock = std::make_shared<FakeClock>();
  auto options = Options();
  options.clock = clock;
  options.leader_elect = true;
  options.leader_election_id = "widgets";
  options.leader_election_namespace = "default";
  Manager manager(Config(), options);
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(
      WaitFor("a lease request", seconds(10), [&] { return api_->lease_requests() == 1; }).ok());
  clock->Step(seconds(35));  // lease duration + 20 s
  EXPECT_EQ(Probe(manager, "/healthz").first, 200) << Probe(manager, "/healthz").second;
  clock->Step(seconds(1));
  auto [status, body] = Probe(manager, "/healthz");
  EXPECT_EQ(status, 503) << body;
  EXPECT_NE(body.find("[-]leader-election failed: the leader election loop made no progress for "
                      "36000 ms"),
            std::string::npos)
      << body;
  api_->HangLeases(false);
  ASSERT_TRUE(manager.Stop().ok());
}

TEST_F(ManagerTest, WiresAfterDiscoveryStartsInOrderAndStopsInReverse) {
  Manager manager(Config(), Options());
  manager.Add(Step("writer", true));
  manager.Add(Step("reader", false));
  manager.SetWiring([this](Manager& m, const ApiDiscovery& discovery) {
    journal_.Add(std::string("wire widgets=") +
                 (discovery.Serves("example.com/v1", "widgets") ? "served" : "missing"));
    m.informers().Get<Widget>(kWidgets, ProjectWidget);
    return Status::Ok();
  });
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("ready", seconds(10), [&] { return manager.ready(); }).ok());
  ASSERT_TRUE(
      WaitFor("writer started", seconds(10), [&] { return journal_.entries().size() == 3; }).ok());
  ASSERT_TRUE(manager.Stop().ok());
  EXPECT_EQ(journal_.entries(),
            (std::vector<std::string>{"wire widgets=served", "start reader", "start writer",
                                      "stop writer", "stop reader"}));
  EXPECT_FALSE(manager.ready());
}

TEST_F(ManagerTest, HandsOutOneEventRecorderPerComponent) {
  Manager manager(Config(), Options());
  auto first = manager.Recorder("dra-controller");
  auto again = manager.Recorder("dra-controller");
  auto other = manager.Recorder("other-component");
  EXPECT_EQ(first.get(), again.get());
  EXPECT_NE(first.get(), other.get());
}

TEST_F(ManagerTest, AWiringErrorReachesOnWiringFailedAndKeepsTheProcessUnready) {
  ManagerOptions options = Options();
  std::mutex mu;
  std::string reported;
  options.on_wiring_failed = [&](const Status& status) {
    std::lock_guard lock(mu);
    reported = status.ToString();
  };
  Manager manager(Config(), options);
  manager.SetWiring([](Manager&, const ApiDiscovery&) {
    return Status(StatusCode::kInternal, "feature gadgets: controller not added");
  });
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("the wiring error reported", seconds(10), [&] {
                std::lock_guard lock(mu);
                return !reported.empty();
              }).ok());
  EXPECT_NE(reported.find("feature gadgets: controller not added"), std::string::npos);
  EXPECT_FALSE(manager.ready());
}

TEST_F(ManagerTest, StaysUnreadyAndRetriesUntilARequiredApiIsServed) {
  api_->ServeGroup(false);
  Manager manager(Config(), Options());
  std::atomic<bool> wired{false};
  manager.SetWiring([&](Manager&, const ApiDiscovery&) {
    wired = true;
    return Status::Ok();
  });
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("several discovery attempts", seconds(10), [&] {
                return api_->discoveries() >= 3;
              }).ok());
  EXPECT_FALSE(manager.ready());
  EXPECT_FALSE(wired);
  api_->ServeGroup(true);
  EXPECT_TRUE(WaitFor("ready once served", seconds(10), [&] { return manager.ready(); }).ok());
  EXPECT_TRUE(wired);
}

// Probe bodies are lines of text, as kube-apiserver's: every one ends with a
// newline, ready or not, so `curl .../readyz` leaves the shell prompt alone.
TEST_F(ManagerTest, ProbeBodiesEndWithANewline) {
  api_->ServeGroup(false);
  Manager manager(Config(), Options());
  manager.SetWiring(WireWidgets);
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(
      WaitFor("a discovery attempt", seconds(10), [&] { return api_->discoveries() >= 1; }).ok());
  auto [unready_status, unready_body] = Probe(manager, "/readyz");
  EXPECT_EQ(unready_status, 503) << unready_body;
  EXPECT_TRUE(unready_body.ends_with("\n")) << "[" << unready_body << "]";
  api_->ServeGroup(true);
  ASSERT_TRUE(WaitFor("ready", seconds(10), [&] { return manager.ready(); }).ok());
  for (const char* path : {"/readyz", "/healthz", "/livez"}) {
    auto [status, body] = Probe(manager, path);
    EXPECT_EQ(status, 200) << path << ": " << body;
    EXPECT_TRUE(body.ends_with("\n")) << path << ": [" << body << "]";
  }
}

TEST_F(ManagerTest, ControllerReconcilesTheKeysOfItsInformersEvents) {
  api_->SetItems(R"({"metadata":{"name":"a","resourceVersion":"1"}},)"
                 R"({"metadata":{"name":"b","resourceVersion":"2"}})");
  Manager manager(Config(), Options());
  auto reconciler = std::make_shared<RecordingReconciler>();
  manager.SetWiring([&](Manager& m, const ApiDiscovery&) {
    auto controller = m.AddController({.name = "widgets", .workers = 2}, reconciler);
    if (!controller.ok()) return controller.status();
    (*controller)
        ->Watch(m.informers().Get<Widget>(kWidgets, ProjectWidget),
                ManagedController::OwnKey<Widget>);
    return Status::Ok();
  });
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("both widgets reconciled", seconds(10), [&] {
                return reconciler->keys().size() >= 2;
              }).ok());
  auto keys = reconciler->keys();
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b"}));
  std::string exposition;
  for (const auto& family : manager.registry()->Collect()) exposition += family.name + "\n";
  EXPECT_NE(exposition.find("workqueue_adds_total"), std::string::npos) << exposition;
  EXPECT_NE(exposition.find("controller_runtime_reconcile_total"), std::string::npos) << exposition;
}

TEST_F(ManagerTest, StopGivesUpOnAWriterThatDoesNotFinishByTheDeadline) {
  auto options = Options();
  options.graceful_shutdown_timeout = milliseconds(300);
  Manager manager(Config(), options);
  auto release = std::make_shared<std::atomic<bool>>(false);
  manager.Add(std::make_unique<FunctionRunnable>(
      "stuck-writer", true, [] { return Status::Ok(); },
      [release] {
        while (!*release) std::this_thread::sleep_for(milliseconds(5));
      }));
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("ready", seconds(10), [&] { return manager.ready(); }).ok());
  auto started = std::chrono::steady_clock::now();
  Status stopped = manager.Stop();
  auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(stopped.code(), StatusCode::kTimeout) << stopped.ToString();
  EXPECT_LT(took, seconds(5));
  *release = true;  // let the detached stopper finish before the test ends
}

// Issue 46: a served port of a feature (the Alertmanager webhook) that could
// not be bound left the process running and merely unready. An always-on
// runnable that cannot start is reported as a wiring error: `run` exits 1.
TEST_F(ManagerTest, AnAlwaysOnRunnableThatFailsToStartIsReportedAsAWiringError) {
  ManagerOptions options = Options();
  std::mutex mu;
  std::string reported;
  options.on_wiring_failed = [&](const Status& status) {
    std::lock_guard lock(mu);
    reported = status.ToString();
  };
  Manager manager(Config(), options);
  manager.Add(std::make_unique<FunctionRunnable>(
      "broken", false, [] { return Status(StatusCode::kUnavailable, "port 8444 in use"); }));
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("the start failure reported", seconds(10), [&] {
                std::lock_guard lock(mu);
                return !reported.empty();
              }).ok());
  EXPECT_NE(reported.find("broken"), std::string::npos) << reported;
  EXPECT_NE(reported.find("port 8444 in use"), std::string::npos) << reported;
  EXPECT_FALSE(manager.ready());
}

TEST_F(ManagerTest, RefusesLeaderElectionWithoutALeaseName) {
  auto options = Options();
  options.leader_elect = true;
  options.leader_election_id = "";
  Manager manager(Config(), options);
  EXPECT_EQ(manager.Start().code(), StatusCode::kInvalidArgument);
}

// One informer's list and watch are forbidden: what waits only for the
// other starts (leader-only too), what needs it does not, readiness says
// which informer and why, health stays good; once the permission is there
// the rest starts, and Stop() undoes exactly what started, in reverse.
TEST_F(ManagerTest, AnInformerThatCannotSyncHoldsBackOnlyWhatWaitsForIt) {
  api_->Forbid("gadgets");
  Manager manager(Config(), Options());
  manager.SetWiring([this](Manager& m, const ApiDiscovery&) {
    WireWidgetsAndGadgets(m);
    return Status::Ok();
  });
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("the widget runnables", seconds(10), [&] {
                return Journaled("start widget-reader") && Journaled("start widget-writer") &&
                       Journaled("start free-writer");
              }).ok());
  ASSERT_TRUE(WaitFor("two denials", seconds(10), [&] { return api_->denials() >= 2; }).ok());
  EXPECT_FALSE(Journaled("start gadget-reader"));
  EXPECT_FALSE(Journaled("start gadget-writer"));
  EXPECT_FALSE(Journaled("start all-reader"));
  EXPECT_FALSE(manager.ready());
  auto [ready_status, ready_body] = Probe(manager, "/readyz");
  EXPECT_EQ(ready_status, 503) << ready_body;
  EXPECT_NE(ready_body.find("[-]informers-synced failed: gadgets.example.com: not synced: "
                            "Forbidden: GET /apis/example.com/v1/gadgets?limit=500: user cannot "
                            "list resource \"gadgets\""),
            std::string::npos)
      << ready_body;
  EXPECT_EQ(ready_body.find("widgets.example.com"), std::string::npos) << ready_body;
  EXPECT_EQ(Probe(manager, "/healthz").first, 200) << Probe(manager, "/healthz").second;

  api_->Forbid("");
  ASSERT_TRUE(
      WaitFor("ready once gadgets sync", seconds(20), [&] { return manager.ready(); }).ok());
  ASSERT_TRUE(WaitFor("the gadget writer", seconds(10), [&] {
                return Journaled("start gadget-writer");
              }).ok());
  EXPECT_EQ(Probe(manager, "/readyz").first, 200) << Probe(manager, "/readyz").second;
  ASSERT_TRUE(manager.Stop().ok());
  auto entries = journal_.entries();
  ASSERT_EQ(entries.size(), 12u);
  // The first three in any order (free-writer waits for nothing), then the
  // ones gadgets held back, always-on first, in the order added.
  std::vector<std::string> first(entries.begin(), entries.begin() + 3);
  std::sort(first.begin(), first.end());
  EXPECT_EQ(first, (std::vector<std::string>{"start free-writer", "start widget-reader",
                                             "start widget-writer"}));
  EXPECT_EQ(
      std::vector<std::string>(entries.begin() + 3, entries.begin() + 6),
      (std::vector<std::string>{"start gadget-reader", "start all-reader", "start gadget-writer"}));
  // Leader-only ones stop first, each kind newest first.
  std::vector<std::string> stops(entries.begin() + 6, entries.end());
  std::vector<std::string> expected;
  for (bool leader_only : {true, false}) {
    for (int k = 5; k >= 0; --k) {
      std::string name = entries[k].substr(6);
      if ((name.find("writer") != std::string::npos) == leader_only) {
        expected.push_back("stop " + name);
      }
    }
  }
  EXPECT_EQ(stops, expected);
}

// A controller that declares what it waits for also waits for what it
// watches, and only that: it reconciles widgets while gadgets are forbidden.
TEST_F(ManagerTest, AControllerWaitsForTheInformersItWatches) {
  api_->SetItems(R"({"metadata":{"name":"a","resourceVersion":"1"}})");
  api_->Forbid("gadgets");
  Manager manager(Config(), Options());
  auto widget_reconciler = std::make_shared<RecordingReconciler>();
  auto gadget_reconciler = std::make_shared<RecordingReconciler>();
  manager.SetWiring([&](Manager& m, const ApiDiscovery&) {
    auto& widgets = m.informers().Get<Widget>(kWidgets, ProjectWidget);
    auto& gadgets = m.informers().Get<Widget>(kGadgets, ProjectWidget);
    auto on_widgets = m.AddController(
        {.name = "widgets", .waits_for = std::vector<InformerDependency>{}}, widget_reconciler);
    if (!on_widgets.ok()) return on_widgets.status();
    (*on_widgets)->Watch(widgets, ManagedController::OwnKey<Widget>);
    auto on_gadgets = m.AddController(
        {.name = "gadgets", .waits_for = std::vector<InformerDependency>{}}, gadget_reconciler);
    if (!on_gadgets.ok()) return on_gadgets.status();
    (*on_gadgets)->Watch(gadgets, ManagedController::OwnKey<Widget>);
    return Status::Ok();
  });
  ASSERT_TRUE(manager.Start().ok());
  ASSERT_TRUE(WaitFor("widget a reconciled", seconds(10), [&] {
                return widget_reconciler->keys() == std::vector<std::string>{"a"};
              }).ok());
  ASSERT_TRUE(WaitFor("two denials", seconds(10), [&] { return api_->denials() >= 2; }).ok());
  EXPECT_TRUE(gadget_reconciler->keys().empty());
  api_->Forbid("");
  EXPECT_TRUE(WaitFor("gadget a reconciled", seconds(20), [&] {
                return gadget_reconciler->keys() == std::vector<std::string>{"a"};
              }).ok());
}

// Every 30 s (first after 5 s) the log names each runnable held back, the
// informer it waits for and the API server's answer.
TEST_F(ManagerTest, LogsWhichRunnableWaitsForWhichInformerAndWhy) {
  auto log = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(200);
  spdlog::default_logger()->sinks().push_back(log);
  auto logged = [log](const std::string& text) {
    for (const auto& line : log->last_formatted()) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  };
  api_->Forbid("gadgets");
  auto clock = std::make_shared<FakeClock>();
  auto options = Options();
  options.clock = clock;
  Manager manager(Config(), options);
  manager.SetWiring([this](Manager& m, const ApiDiscovery&) {
    WireWidgetsAndGadgets(m);
    return Status::Ok();
  });
  ASSERT_TRUE(manager.Start().ok());
  Status seen = WaitFor("the waiting report", seconds(10), [&] {
    clock->Step(milliseconds(500));
    return logged(
        "gadget-reader waits for informer gadgets.example.com: not synced: Forbidden: GET "
        "/apis/example.com/v1/gadgets?limit=500: user cannot list resource \"gadgets\"");
  });
  EXPECT_TRUE(seen.ok()) << seen.ToString();
  EXPECT_TRUE(logged("all-reader waits for informer gadgets.example.com: not synced"));
  EXPECT_FALSE(logged("widget-reader waits for informer widgets"));
  EXPECT_TRUE(logged("gadget-reader waits for informers gadgets.example.com"));
  ASSERT_TRUE(manager.Stop().ok());
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.erase(std::find(sinks.begin(), sinks.end(), log));
}

// Stop() racing with a late start: the permission comes back and Stop()
// follows 0 to 1.75 s later, spanning the reflector's first retry (0.8 to
// 1.6 s), so some rounds stop before the start, some after, some during.
// Whatever started is stopped, nothing starts once Stop() returned, and in
// round 0 (never permitted) nothing starts and Stop() does not wait for it.
TEST_F(ManagerTest, StopRacingWithALateStartStopsExactlyWhatStarted) {
  for (int round = 0; round < 8; ++round) {
    SCOPED_TRACE(round);
    api_->Forbid("gadgets");
    Journal journal;
    {
      Manager manager(Config(), Options());
      manager.SetWiring([&](Manager& m, const ApiDiscovery&) {
        auto gadgets = InformerDependency::On(m.informers().Get<Widget>(kGadgets, ProjectWidget));
        for (std::string name : {"late-reader", "late-writer"}) {
          m.Add(std::make_unique<FunctionRunnable>(
              name, name == "late-writer",
              [&journal, name] {
                journal.Add("start " + name);
                return Status::Ok();
              },
              [&journal, name] { journal.Add("stop " + name); }, std::vector{gadgets}));
        }
        return Status::Ok();
      });
      ASSERT_TRUE(manager.Start().ok());
      int denials = api_->denials();
      ASSERT_TRUE(WaitFor("a denial", seconds(10), [&] { return api_->denials() > denials; }).ok());
      if (round > 0) {
        api_->Forbid("");
        std::this_thread::sleep_for(milliseconds(250 * (round - 1)));
      }
      ASSERT_TRUE(manager.Stop().ok());
      auto at_stop = journal.entries();
      for (const auto& entry : at_stop) {
        if (entry.rfind("start ", 0) != 0) continue;
        std::string stop = "stop " + entry.substr(6);
        EXPECT_NE(std::find(at_stop.begin(), at_stop.end(), stop), at_stop.end()) << entry;
      }
      if (round == 0) {
        EXPECT_TRUE(at_stop.empty());
      }
      std::this_thread::sleep_for(milliseconds(50));  // a start after Stop() would show here
      EXPECT_EQ(journal.entries(), at_stop);
    }
  }
}

TEST(CheckSetTest, ReportsEveryFailingCheckByName) {
  CheckSet checks;
  checks.Add("ping", [] { return Status::Ok(); });
  checks.Add("informers", [] { return Status(StatusCode::kUnavailable, "not synced"); });
  auto verdict = checks.Evaluate(false);
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.body, "[+]ping ok\n[-]informers failed: not synced\ncheck failed\n");
  CheckSet healthy;
  healthy.Add("ping", [] { return Status::Ok(); });
  EXPECT_EQ(healthy.Evaluate(false).body, "ok\n");
  EXPECT_EQ(healthy.Evaluate(true).body, "[+]ping ok\nok\n");
}

}  // namespace
}  // namespace kube
