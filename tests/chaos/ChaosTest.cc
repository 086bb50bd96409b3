// Chaos against the real control plane (README "Failure behaviour", "Chaos";
// `make chaos`, hack/chaos.sh): two `dra-controller run --leader-elect`
// replicas with device health on, while a driver makes random changes
//   a. kube-apiserver, etcd, then both are restarted (CHAOS_FAULT_ROUNDS times);
//   b. the leader is SIGKILLed every CHAOS_KILL_INTERVAL seconds for
//      CHAOS_MINUTES and replaced, so two replicas always exist;
//   c. the driver stops; once the leader's queues are idle, the taint rules and
//      statuses must be exactly those the DeviceHealth objects call for, and a
//      fresh process must agree: the same allocation metrics as the leader
//      and, once it leads, no write at all.
// Throughout: never two replicas leading in one polling round, no exit but
// our SIGKILLs, documented leadership-lost exits and clean stops; writes are
// counted from the API server's audit log.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tests/chaos/AuditLog.h"
#include "tests/chaos/ChangeDriver.h"
#include "tests/chaos/ChaosOptions.h"
#include "tests/chaos/ChaosResources.h"
#include "tests/chaos/EventAudit.h"
#include "tests/chaos/LeaderMonitor.h"
#include "tests/chaos/LeaderTerm.h"
#include "tests/chaos/MetricsText.h"
#include "tests/chaos/ReplicaSet.h"
#include "tests/chaos/TaintAudit.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

// Election timings of the replicas (valid: lease > renew > 1.2 x retry).
constexpr auto kLease = 8s;
constexpr auto kRenew = 5s;
constexpr auto kRetry = 1s;
// SIGKILL failover: lease + 1.2 x retry (LeaderElectionTest's argument) plus
// 3 s for API round trips and polling on a loaded 2-core machine.
constexpr auto kFailoverBound = kLease + kRetry * 6 / 5 + 3s;
constexpr auto kPreview = "2s";
constexpr auto kHoldOff = "3s";

double Secs(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string Flag(std::chrono::seconds s) { return std::to_string(s.count()) + "s"; }

// Every dra_controller_* gauge but the build's. A series at 0 is left out:
// a long-running leader keeps label sets it once used at 0, a fresh process
// never had them.
bool ControllerGauge(const MetricsText& m, const std::string& series) {
  std::string name = MetricsText::NameOf(series);
  return name.rfind("dra_controller_", 0) == 0 && name != "dra_controller_build_info" &&
         m.TypeOf(name) == "gauge" && m.samples().at(series) != 0;
}

// The gauges a standby computes too (from its caches): not those of the
// leader-only reconcilers (device health, extended-resource findings).
bool AllocationGauge(const MetricsText& m, const std::string& series) {
  std::string name = MetricsText::NameOf(series);
  return ControllerGauge(m, series) && name.rfind("dra_controller_health_", 0) != 0 &&
         name != "dra_controller_extended_resource_findings";
}

struct Stats {
  std::vector<double> values;
  void Add(double v) { values.push_back(v); }
  std::string Describe() const {
    if (values.empty()) return "none";
    auto sorted = values;
    std::sort(sorted.begin(), sorted.end());
    std::ostringstream out;
    out.precision(1);
    out << std::fixed << "n=" << sorted.size() << " min " << sorted.front() << " s, median "
        << sorted[sorted.size() / 2] << " s, max " << sorted.back() << " s";
    return out.str();
  }
  double Max() const {
    return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
  }
};

// What must not change when a fresh controller takes over a settled world.
struct Snapshot {
  std::map<std::string, std::string> rules;    // name -> uid and spec
  std::map<std::string, std::string> healths;  // name -> status
  std::map<std::string, int> health_events;    // Event name -> count
  bool operator==(const Snapshot&) const = default;
};

class ChaosTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    options_ = ChaosOptions::FromEnvironment();
    lease_ = "chaos-" + std::to_string(options_.seed);
    ASSERT_NO_FATAL_FAILURE(InstallFleet());
  }

  void TearDown() override {
    driver_.reset();
    monitor_.reset();
    replicas_.reset();
    fresh_.reset();
    if (cluster_) Cleanup();
  }

  void InstallFleet() {
    auto crd = cluster_->InstallDeviceHealthCrd();
    ASSERT_TRUE(crd.ok()) << crd.ToString();
    auto fleet = ApplyFakeFleet(*cluster_, fleet_.NodeSpecs());
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    ASSERT_TRUE(cluster_
                    ->Apply(DeviceClassManifest(chaos::kClassName, chaos::kExtendedResource,
                                                FakeGpuModelSelector(chaos::kModel)))
                    .ok());
    auto ns = cluster_->CreateTestNamespace("chaos");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void Cleanup() {
    std::string selector = chaos::kLabelSelector;
    (void)cluster_->Kubectl({"delete", "devicehealths", "-l", selector, "--wait=false"});
    (void)cluster_->Kubectl({"delete", "devicetaintrules", "-l",
                             "app.kubernetes.io/managed-by=dra-controller", "--wait=false"});
    (void)cluster_->Kubectl({"delete", "resourceslices,deviceclasses", "-l", selector});
    (void)cluster_->Kubectl({"delete", "deviceclass", chaos::kClassName, "--ignore-not-found"});
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    RemoveFakeFleet(*cluster_, fleet_.NodeSpecs());
  }

  std::vector<std::string> Flags() const {
    return {"--leader-elect",
            "--leader-election-namespace",
            "default",
            "--leader-election-id",
            lease_,
            "--leader-elect-lease-duration",
            Flag(kLease),
            "--leader-elect-renew-deadline",
            Flag(kRenew),
            "--leader-elect-retry-period",
            Flag(kRetry),
            "--metrics-bind-address",
            "127.0.0.1:0",
            "--health-probe-bind-address",
            "127.0.0.1:0",
            "--health-preview",
            kPreview,
            "--health-hold-off",
            kHoldOff,
            "--health-storm-guard-percent",
            "100"};
  }

  json Items(const kube::ResourceType& type, const std::string& ns = "") {
    auto list = client_->List(type, ns, kube::ListOptions{});
    return list.ok() ? list->value("items", json::array()) : json::array();
  }

  bool AnyLeader() {
    for (int s : replicas_->MasterStatuses(500ms)) {
      if (s == 1) return true;
    }
    return false;
  }

  // Waits for a leader; the time it took (or the limit).
  double WaitForLeader(std::chrono::seconds limit) {
    auto start = SteadyClock::now();
    auto led = WaitFor("a replica to lead", limit, [&] { return AnyLeader(); });
    EXPECT_TRUE(led.ok()) << led.ToString();
    return Secs(SteadyClock::now() - start);
  }

  kube::Status WaitForApiServer(std::chrono::seconds limit) {
    kube::HttpRequest readyz;
    readyz.path = "/readyz";
    return WaitFor("kube-apiserver /readyz", limit, [&] { return client_->Do(readyz).ok(); });
  }

  void Restart(const std::string& fault) {
    if (fault == "etcd" || fault == "both") {
      auto s = cluster_->RestartComponent("etcd");
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    if (fault == "kube-apiserver" || fault == "both") {
      auto s = cluster_->RestartComponent("kube-apiserver");
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    auto up = WaitForApiServer(120s);
    ASSERT_TRUE(up.ok()) << up.ToString();
  }

  void FaultPhase() {
    for (int round = 0; round < options_.fault_rounds; ++round) {
      for (const char* fault : {"kube-apiserver", "etcd", "both"}) {
        std::this_thread::sleep_for(10s);  // a burst of changes before each fault
        auto start = SteadyClock::now();
        ASSERT_NO_FATAL_FAILURE(Restart(fault));
        double down = Secs(SteadyClock::now() - start);
        double led = WaitForLeader(120s);
        restarts_[fault]++;
        restart_times_.Add(down);
        recovery_times_.Add(down + led);
        Log(std::string("restarted ") + fault + ": API back after " + Fixed(down) +
            " s, a leader after " + Fixed(down + led) + " s");
      }
    }
  }

  void KillPhase() {
    auto start = SteadyClock::now();
    auto end = start + options_.kill_loop;
    auto next = start + options_.kill_interval;
    while (next <= end) {
      std::this_thread::sleep_until(next);
      next += options_.kill_interval;
      if (!AnyLeader()) (void)WaitForLeader(std::chrono::seconds(30));
      std::string killed = replicas_->KillLeader();
      if (killed.empty()) {
        ++kills_missed_;
        continue;
      }
      auto start = SteadyClock::now();
      ++kills_;
      auto led = WaitFor("a new leader after SIGKILL", 60s, [&] { return AnyLeader(); });
      double took = Secs(SteadyClock::now() - start);
      EXPECT_TRUE(led.ok()) << led.ToString();
      EXPECT_LE(took, Secs(kFailoverBound)) << "failover after killing " << killed;
      failover_times_.Add(took);
      Log("SIGKILLed leader " + killed + "; new leader after " + Fixed(took) + " s");
    }
  }

  // Waits until the leader's work queues are idle, the world is what the
  // DeviceHealth objects call for, and rules and statuses have not changed
  // for 15 s (kube-controller-manager's eviction still updates rules and
  // Pods for a while after the last change).
  void Settle() {
    MetricsText leader;
    std::vector<std::string> problems;
    Snapshot last;
    auto quiet_since = SteadyClock::now();
    auto settled = WaitFor(
        "idle queues and the expected taints", 180s,
        [&] {
          ForceDeleteTerminatingPods();
          std::string page = replicas_->LeaderMetrics();
          if (page.empty()) return false;
          leader = MetricsText::Parse(page);
          if (leader.Sum("workqueue_depth") != 0 ||
              leader.Sum("workqueue_unfinished_work_seconds") != 0) {
            return false;
          }
          problems =
              TaintAudit::Check(Items(chaos::kDeviceHealths), Items(chaos::kDeviceTaintRules));
          if (!problems.empty()) return false;
          Snapshot now = Take();
          if (!(now == last)) {
            last = now;
            quiet_since = SteadyClock::now();
          }
          return SteadyClock::now() - quiet_since >= 15s;
        },
        [&] { return Join(problems); });
    EXPECT_TRUE(settled.ok()) << settled.ToString();
  }

  // Pods evicted from NoExecute devices wait for a kubelet that never comes.
  void ForceDeleteTerminatingPods() {
    kube::DeleteOptions now;
    now.grace_period_seconds = 0;
    for (const auto& pod : Items(chaos::kPods, ns_)) {
      if (!pod.contains("/metadata/deletionTimestamp"_json_pointer)) continue;
      (void)client_->DeleteIfExists(
          chaos::kPods.ItemPath(ns_, pod.value("/metadata/name"_json_pointer, std::string())), now);
    }
  }

  Snapshot Take() {
    Snapshot s;
    for (const auto& r : Items(chaos::kDeviceTaintRules)) {
      s.rules[r["metadata"].value("name", "")] =
          r["metadata"].value("uid", "") + " " + r.value("spec", json::object()).dump();
    }
    for (const auto& h : Items(chaos::kDeviceHealths)) {
      s.healths[h["metadata"].value("name", "")] = h.value("status", json::object()).dump();
    }
    s.health_events = EventAudit(Items(chaos::kEvents)).Counts("DeviceHealth");
    return s;
  }

  void Log(const std::string& line) {
    std::cout << "[chaos] " << line << std::endl;
    summary_ << line << "\n";
  }
  static std::string Fixed(double v) {
    std::ostringstream out;
    out.precision(1);
    out << std::fixed << v;
    return out.str();
  }
  static std::string Join(const std::vector<std::string>& lines, size_t max = 15) {
    std::string out;
    for (size_t i = 0; i < lines.size() && i < max; ++i) out += "\n  " + lines[i];
    if (lines.size() > max) out += "\n  ... " + std::to_string(lines.size() - max) + " more";
    return out;
  }

  // The fresh process as a standby: its allocation gauges must equal the leader's.
  void StartFreshStandby() {
    auto fresh = ChaosReplica::Start(cluster_->kubeconfig(), Flags(), "fresh");
    ASSERT_TRUE(fresh.ok()) << fresh.status().ToString();
    fresh_ = std::move(*fresh);
    ASSERT_TRUE(
        WaitFor("the fresh process to be ready", 60s, [&] { return fresh_->Ready(1s); }).ok());
    std::string difference;
    auto agreed = WaitFor(
        "the fresh process's allocation metrics to equal the leader's", 60s,
        [&] {
          auto mine = fresh_->Scrape(2s);
          std::string page = replicas_->LeaderMetrics();
          if (!mine.ok() || page.empty()) return false;
          MetricsText f = MetricsText::Parse(*mine), l = MetricsText::Parse(page);
          difference = DescribeDifference(
              l.Select([&](const std::string& s) { return AllocationGauge(l, s); }),
              f.Select([&](const std::string& s) { return AllocationGauge(f, s); }));
          return difference.empty();
        },
        [&] { return "leader vs fresh: " + difference; });
    EXPECT_TRUE(agreed.ok()) << agreed.ToString();
  }

  // The hand-over: the replicas stop, the fresh process leads and reconciles
  // everything; what the old leader left must be what the fresh one keeps.
  void HandOver() {
    monitor_->Stop();
    MetricsText leader = MetricsText::Parse(replicas_->LeaderMetrics());
    allocation_series_ =
        leader.Select([&](const std::string& s) { return AllocationGauge(leader, s); }).size();
    before_ = Take();
    takeover_since_ = AuditLog::Now();
    replicas_->StopAll(20s);
    ASSERT_TRUE(WaitFor("the fresh process to lead", 30s, [&] {
                  return fresh_->MasterStatus(1s) == 1;
                }).ok());
    ASSERT_NO_FATAL_FAILURE(WaitForFreshReconcile());
    std::this_thread::sleep_for(3s);  // one hold-off: a wrong requeue would write by now
    Snapshot after = Take();
    EXPECT_TRUE(before_.rules == after.rules) << "the fresh leader rewrote DeviceTaintRules";
    EXPECT_TRUE(before_.healths == after.healths) << "the fresh leader rewrote DeviceHealth status";
    EXPECT_TRUE(before_.health_events == after.health_events)
        << "the fresh leader recorded DeviceHealth Events in a settled world";
    auto page = fresh_->Scrape(2s);
    ASSERT_TRUE(page.ok());
    MetricsText fresh = MetricsText::Parse(*page);
    auto gauges = [](const MetricsText& m) {
      return m.Select([&](const std::string& s) { return ControllerGauge(m, s); });
    };
    EXPECT_EQ(DescribeDifference(gauges(leader), gauges(fresh)), "")
        << "dra_controller_* gauges: old leader vs fresh leader";
    leader_series_ = gauges(leader).size();
    auto problems =
        TaintAudit::Check(Items(chaos::kDeviceHealths), Items(chaos::kDeviceTaintRules));
    EXPECT_TRUE(problems.empty()) << Join(problems);
    fresh_->process().Signal(SIGTERM);
    EXPECT_EQ(fresh_->process().Wait(20s), std::optional<int>(0));
    fresh_log_ = fresh_->process().Output();
    std::ofstream(options_.artifacts + "/fresh.log") << fresh_log_;
  }

  void WaitForFreshReconcile() {
    auto healths = static_cast<double>(before_.healths.size());
    auto reconciled = WaitFor("the fresh leader to reconcile every DeviceHealth", 60s, [&] {
      auto page = fresh_->Scrape(2s);
      if (!page.ok()) return false;
      MetricsText m = MetricsText::Parse(*page);
      return m.Sum("controller_runtime_reconcile_total", "controller=\"devicehealth\"") >=
                 healths &&
             m.Sum("workqueue_depth") == 0 && m.Sum("workqueue_unfinished_work_seconds") == 0;
    });
    EXPECT_TRUE(reconciled.ok()) << reconciled.ToString();
  }

  // Exits (no crash), the leader invariant, leader terms.
  void CheckExits() {
    for (const auto& e : replicas_->exits()) {
      EXPECT_FALSE(e.Crashed()) << e.name << " exited with " << e.code << " (log in "
                                << options_.artifacts << ")";
      killed_ += e.killed_by_us;
      lost_ += e.leadership_lost && !e.killed_by_us;
      stopped_ += e.stopped_by_us;
      if (e.term) terms_.push_back(*e.term);
    }
    if (auto fresh_term = LeaderTerm::FromLog(fresh_log_)) terms_.push_back(*fresh_term);
    EXPECT_EQ(monitor_->both_leading_rounds(), 0) << "two replicas reported leading at once";
    Log("processes: " + std::to_string(replicas_->started() + 1) + " started; exits: " +
        std::to_string(killed_) + " SIGKILL (ours), " + std::to_string(lost_) +
        " leadership lost (exit 1), " + std::to_string(stopped_) + " SIGTERM at the end; " +
        std::to_string(terms_.size()) + " leader terms (the fresh process's included)");
    Log("leader polls: " + std::to_string(monitor_->rounds()) + " rounds, both leading in " +
        std::to_string(monitor_->both_leading_rounds()) + ", none leading in " +
        std::to_string(monitor_->leaderless_rounds()));
  }

  // Event objects: one per dedup key and leader term at most.
  void CheckEvents() {
    EventAudit events(Items(chaos::kEvents));
    auto duplicates = events.DuplicatesWithinOneTerm(terms_);
    EXPECT_TRUE(duplicates.empty())
        << "Events the recorder should have merged:" << Join(duplicates);
    EXPECT_LE(events.MaxObjectsPerKey(), static_cast<int>(terms_.size()))
        << "an Event key has more objects than there were leader terms";
    std::string reasons;
    for (const auto& [reason, n] : events.occurrences_by_reason()) {
      reasons += reason + "=" + std::to_string(n) + " ";
    }
    Log("events: " + reasons + "; keys with several Event objects " +
        std::to_string(events.KeysWithSeveralObjects()) + ", most objects for one key " +
        std::to_string(events.MaxObjectsPerKey()) + " (" + events.MostObjects().first +
        "); keys with several objects in one leader term: " + std::to_string(duplicates.size()));
  }

  // Writes from the audit log: no storm, none by the fresh leader.
  void CheckWrites(const ChangeCounts& changes) {
    if (options_.audit_log.empty()) {
      Log("writes not counted: DRA_CHAOS_AUDIT_LOG is unset (hack/chaos.sh sets it)");
      return;
    }
    auto all = AuditLog::Count(options_.audit_log, "dra-controller/", audit_since_);
    auto fresh_writes = AuditLog::Count(options_.audit_log, "dra-controller/", takeover_since_);
    int rule_writes = all.Total("devicetaintrules");
    int status_writes = all.Total("devicehealths/status");
    std::string detail;
    for (const auto& [key, n] : all.by_resource_verb) detail += key + "=" + std::to_string(n) + " ";
    Log("controller writes (audit log): " + detail);
    int per = std::max(changes.health_changes, 1);
    Log("DeviceTaintRule writes per DeviceHealth change: " + Fixed(100.0 * rule_writes / per) +
        "/100; status writes per change: " + Fixed(100.0 * status_writes / per) + "/100");
    int leader_changes = static_cast<int>(terms_.size()) + options_.fault_rounds * 3;
    EXPECT_LE(rule_writes, 3 * changes.health_changes + 10 * leader_changes) << "write storm";
    EXPECT_EQ(fresh_writes.Total("devicetaintrules"), 0) << "the fresh leader wrote rules";
    EXPECT_EQ(fresh_writes.Total("devicehealths/status"), 0) << "the fresh leader wrote status";
  }

  void Report(const ChangeCounts& changes, SteadyClock::time_point started) {
    Log("duration " + Fixed(Secs(SteadyClock::now() - started)) +
        " s; changes applied: " + std::to_string(changes.health_changes) + " DeviceHealth, " +
        std::to_string(changes.slice_changes) + " ResourceSlice, " +
        std::to_string(changes.class_changes) + " DeviceClass, " +
        std::to_string(changes.pod_changes) + " Pod; " + std::to_string(changes.failed) +
        " requests failed during faults");
    Log("restarts: kube-apiserver " + std::to_string(restarts_["kube-apiserver"]) + ", etcd " +
        std::to_string(restarts_["etcd"]) + ", both " + std::to_string(restarts_["both"]) +
        "; API back: " + restart_times_.Describe() +
        "; leader back: " + recovery_times_.Describe());
    Log("leader kills: " + std::to_string(kills_) + " (" + std::to_string(kills_missed_) +
        " rounds without a leader to kill); failover " + failover_times_.Describe() + " (bound " +
        Fixed(Secs(kFailoverBound)) + " s)");
    Log("final: " + std::to_string(before_.healths.size()) + " DeviceHealth, " +
        std::to_string(before_.rules.size()) + " DeviceTaintRules; " +
        std::to_string(allocation_series_) +
        " allocation series equal on leader and fresh standby, " + std::to_string(leader_series_) +
        " gauge series on old and fresh leader");
  }

  std::string audit_since_;
  std::string takeover_since_;
  Snapshot before_;
  std::string fresh_log_;
  std::vector<LeaderTerm> terms_;
  size_t allocation_series_ = 0;
  size_t leader_series_ = 0;
  int killed_ = 0;
  int lost_ = 0;
  int stopped_ = 0;
  ChaosOptions options_;
  chaos::Fleet fleet_;
  std::string lease_;
  std::string ns_;
  std::unique_ptr<ReplicaSet> replicas_;
  std::unique_ptr<LeaderMonitor> monitor_;
  std::unique_ptr<ChangeDriver> driver_;
  std::unique_ptr<ChaosReplica> fresh_;
  std::map<std::string, int> restarts_;
  Stats restart_times_, recovery_times_, failover_times_;
  int kills_ = 0;
  int kills_missed_ = 0;
  std::ostringstream summary_;
};

TEST_F(ChaosTest, SurvivesControlPlaneRestartsAndLeaderKills) {
  auto started = SteadyClock::now();
  audit_since_ = AuditLog::Now();
  Log("seed " + std::to_string(options_.seed) + ", lease " + lease_ + ", artifacts " +
      options_.artifacts);
  replicas_ = std::make_unique<ReplicaSet>(cluster_->kubeconfig(), Flags(), options_.artifacts);
  ASSERT_TRUE(replicas_->Start(2).ok());
  WaitForLeader(60s);
  monitor_ = std::make_unique<LeaderMonitor>(*replicas_, 250ms);
  monitor_->Start();
  driver_ = std::make_unique<ChangeDriver>(client_, fleet_, ns_, options_.seed, 150ms);
  driver_->Start();

  ASSERT_NO_FATAL_FAILURE(FaultPhase());
  Log("phase a done after " + Fixed(Secs(SteadyClock::now() - started)) + " s");
  KillPhase();
  Log("phase b done after " + Fixed(Secs(SteadyClock::now() - started)) + " s");

  driver_->Stop();
  ChangeCounts changes = driver_->counts();
  auto settle_start = SteadyClock::now();
  Settle();
  Log("settled in " + Fixed(Secs(SteadyClock::now() - settle_start)) + " s (15 s quiet)");
  ASSERT_NO_FATAL_FAILURE(StartFreshStandby());
  ASSERT_NO_FATAL_FAILURE(HandOver());

  Report(changes, started);
  CheckExits();
  CheckEvents();
  CheckWrites(changes);
  std::ofstream(options_.artifacts + "/summary.txt") << summary_.str();
}

}  // namespace
}  // namespace dra::testing
