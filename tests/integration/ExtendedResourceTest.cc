// Extended resources against the real v1.37.2 scheduler: Pods asking for an
// extended resource served by a DeviceClass are bound with scheduler-made
// claims whose request names `explain` predicts; an unfittable Pod gets the
// controller's explaining Event and `explain` agrees with the scheduler;
// duplicate names, the order hazard and a device-plugin node are reported by
// the running controller and cleared when fixed.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/RunningController.h"
#include "tests/support/Subprocess.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "ext-gpu.example.com";
constexpr const char* kDupClass = "ext-gpu-dup.example.com";
constexpr const char* kResource = "example.com/ext-gpu";
constexpr const char* kNode = "ext-a";
const std::vector<std::string> kFleet{"ext-a:2:40Gi:gpu-ext-40g"};

std::string Binary() { return std::string(DRA_BINARY_DIR) + "/dra-controller"; }

std::string ClassManifest(const std::string& name) {
  return DeviceClassManifest(
      name, kResource,
      "device.driver == \"gpu.example.com\" && "
      "device.attributes[\"gpu.example.com\"].model.startsWith(\"gpu-ext-\")");
}

json Container(const std::string& name, json limits) {
  return {{"name", name},
          {"image", "registry.k8s.io/pause:3.10"},
          {"resources", {{"limits", std::move(limits)}}}};
}

std::string PodManifest(const std::string& name, const std::string& ns, json containers) {
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec", {{"automountServiceAccountToken", false}, {"containers", containers}}}};
  return pod.dump();
}

class ExtendedResourceTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    // Events about cluster-scoped objects land in "default" and outlive the
    // objects: drop those of an earlier run so every wait below sees new ones.
    for (const char* name : {kClass, kDupClass, kNode}) {
      (void)cluster_->Kubectl({"delete", "events", "-n", "default", "--field-selector",
                               std::string("involvedObject.name=") + name});
    }
    ASSERT_TRUE(cluster_->Apply(ClassManifest(kClass)).ok());
    auto ns = cluster_->CreateTestNamespace("extended");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
  }

  void TearDown() override {
    controller_.reset();
    if (!cluster_) return;
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    for (const char* c : {kClass, kDupClass}) {
      (void)cluster_->Kubectl({"delete", "deviceclass", c, "--ignore-not-found"});
    }
    RemoveFakeFleet(*cluster_, kFleet);
  }

  void StartController(const std::vector<std::string>& extra_flags = {}) {
    RunningController::Options options;
    options.kubeconfig = cluster_->kubeconfig();
    options.metrics_bind_address = "0";
    options.args = extra_flags;
    auto started = RunningController::Start(options);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    controller_ = std::move(*started);
  }

  // Runs a dra-controller operator command; returns exit code and stdout.
  std::pair<int, std::string> Cli(std::vector<std::string> args) {
    std::vector<std::string> argv{Binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--kubeconfig", cluster_->kubeconfig()});
    auto out = Subprocess::Run(argv, "", 60s);
    if (!out.ok()) return {-1, out.status().ToString()};
    return {out->exit_code, out->out};
  }

  json CliJson(std::vector<std::string> args, int* code = nullptr) {
    auto [rc, text] = Cli(std::move(args));
    if (code) *code = rc;
    auto parsed = json::parse(text, nullptr, false);
    return parsed.is_discarded() ? json() : parsed;
  }

  json Get(std::vector<std::string> args) {
    auto out = cluster_->GetJson(args);
    return out.ok() ? *out : json();
  }

  std::string SchedulerMessage(const std::string& pod) {
    auto conditions =
        Get({"get", "pod", pod, "-n", ns_}).value("/status/conditions"_json_pointer, json::array());
    for (const auto& c : conditions) {
      if (c.value("type", "") == "PodScheduled") return c.value("message", "");
    }
    return "";
  }

  std::string NodeOf(const std::string& pod) {
    return Get({"get", "pod", pod, "-n", ns_}).value("/spec/nodeName"_json_pointer, std::string());
  }

  // Events with `reason` about object `name` in `ns`.
  std::vector<json> Events(const std::string& ns, const std::string& name,
                           const std::string& reason) {
    std::vector<json> out;
    auto list = Get({"get", "events", "-n", ns, "--field-selector",
                     "involvedObject.name=" + name + ",reason=" + reason});
    for (const auto& e : list.value("items", json::array())) out.push_back(e);
    return out;
  }

  ::testing::AssertionResult EventAppears(const std::string& ns, const std::string& name,
                                          const std::string& reason,
                                          std::chrono::seconds deadline = 60s) {
    auto seen = WaitFor(reason + " on " + name, deadline,
                        [&] { return !Events(ns, name, reason).empty(); });
    if (seen.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << seen.ToString() << "\ncontroller output:\n"
                                         << (controller_ ? controller_->Output() : "");
  }

  bool HasFinding(const json& mapping, const std::string& kind, const std::string& object) {
    for (const auto& f : mapping.value("findings", json::array())) {
      if (f.value("kind", "") == kind && f.value("objectName", "") == object) return true;
    }
    return false;
  }

  std::string ns_;
  std::unique_ptr<RunningController> controller_;
};

TEST_F(ExtendedResourceTest, BoundPodsJoinTheirSchedulerMadeClaims) {
  // Two containers, cpu and memory in the sorted names: request names must
  // follow the scheduler's container-<i>-request-<j>.
  json containers =
      json::array({Container("a", {{"cpu", "100m"}, {kResource, "1"}, {"memory", "64Mi"}}),
                   Container("b", {{kResource, "1"}})});
  ASSERT_TRUE(cluster_->Create(PodManifest("two", ns_, containers)).ok());
  auto bound = WaitFor("pod two bound", 60s, [&] { return !NodeOf("two").empty(); });
  ASSERT_TRUE(bound.ok()) << bound.ToString();
  EXPECT_EQ(NodeOf("two"), kNode);

  json status;
  auto joined = WaitFor("extendedResourceClaimStatus", 30s, [&] {
    status = Get({"get", "pod", "two", "-n", ns_}).value("/status"_json_pointer, json());
    return status.contains("extendedResourceClaimStatus");
  });
  ASSERT_TRUE(joined.ok()) << status.dump();
  std::string claim_name = status["extendedResourceClaimStatus"].value("resourceClaimName", "");
  json claim = Get({"get", "resourceclaim", claim_name, "-n", ns_});
  std::set<std::string> claim_requests;
  for (const auto& r : claim.value("/spec/devices/requests"_json_pointer, json::array())) {
    claim_requests.insert(r.value("name", ""));
  }

  int code = -1;
  json explained = CliJson({"explain", "pod", ns_ + "/two", "-o", "json"}, &code);
  EXPECT_EQ(code, 0) << explained.dump(2);
  std::set<std::string> predicted;
  for (const auto& r : explained.value("requests", json::array())) {
    predicted.insert(r.value("name", ""));
  }
  EXPECT_EQ(predicted, (std::set<std::string>{"container-0-request-1", "container-1-request-0"}));
  EXPECT_EQ(predicted, claim_requests) << claim.dump(2);
  EXPECT_EQ(explained.value("claimName", ""), claim_name);
  EXPECT_EQ(explained.value("devices", json::array()).size(), 2u) << explained.dump(2);
  EXPECT_TRUE(explained.value("problems", json::array()).empty()) << explained.dump(2);

  json devices = CliJson({"devices", "--class", kClass, "-o", "json"});
  ASSERT_EQ(devices.size(), 2u) << devices.dump(2);
  for (const auto& d : devices) {
    EXPECT_EQ(d.value("state", ""), "allocated");
    EXPECT_EQ(d.value("pods", json::array()), json::array({ns_ + "/two"}));
  }
}

TEST_F(ExtendedResourceTest, UnfittablePodGetsOneEventAndExplainAgrees) {
  StartController();
  ASSERT_TRUE(
      cluster_
          ->Create(PodManifest("big", ns_, json::array({Container("main", {{kResource, "3"}})})))
          .ok());
  ASSERT_TRUE(EventAppears(ns_, "big", "ExtendedResourceUnschedulable", 90s));
  auto events = Events(ns_, "big", "ExtendedResourceUnschedulable");
  ASSERT_EQ(events.size(), 1u);
  std::string message = events[0].value("message", "");
  EXPECT_NE(message.find("have 2 free of 2 ext-gpu.example.com"), std::string::npos) << message;
  EXPECT_NE(message.find("Scheduler: 0/"), std::string::npos) << message;

  int code = -1;
  json explained = CliJson({"explain", "pod", ns_ + "/big", "-o", "json"}, &code);
  EXPECT_EQ(code, 1) << explained.dump(2);
  EXPECT_FALSE(explained.value("schedulable", true));
  EXPECT_EQ(explained.value("fittingNodes", -1), 0);
  // The scheduler agrees: no node, and it says why.
  EXPECT_EQ(NodeOf("big"), "");
  EXPECT_NE(explained.value("schedulerMessage", "").find("0/"), std::string::npos);
  for (const auto& n : explained.value("nodes", json::array())) {
    EXPECT_NE(n.value("reason", ""), "Fits") << n.dump();
  }

  // A restarted controller does not send the Pod the Event it already has;
  // a Pod created afterwards gets its own (the new process reconciles Pods).
  controller_.reset();
  StartController();
  ASSERT_TRUE(
      cluster_
          ->Create(PodManifest("big-2", ns_, json::array({Container("main", {{kResource, "3"}})})))
          .ok());
  ASSERT_TRUE(EventAppears(ns_, "big-2", "ExtendedResourceUnschedulable", 90s));
  events = Events(ns_, "big", "ExtendedResourceUnschedulable");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].value("count", 0), 1) << events[0].dump();
}

TEST_F(ExtendedResourceTest, BacklogOf2000PodsGetsAtMostOneEventEach) {
  constexpr int kPods = 2000;
  const kube::ResourceType pods{"", "v1", "pods", true, "Pod"};
  for (int i = 0; i < kPods; ++i) {
    auto pod = json::parse(PodManifest("backlog-" + std::to_string(i), ns_,
                                       json::array({Container("main", {{kResource, "3"}})})));
    auto created = client_->Create(pods, ns_, pod);
    ASSERT_TRUE(created.ok()) << i << ": " << created.status().ToString();
  }
  auto started = std::chrono::steady_clock::now();
  StartController();
  std::map<std::string, int> per_pod;
  int total = 0;
  auto enough = WaitFor(
      "200 ExtendedResourceUnschedulable Events", 180s,
      [&] {
        per_pod.clear();
        total = 0;
        auto list = Get({"get", "events", "-n", ns_, "--field-selector",
                         "reason=ExtendedResourceUnschedulable"});
        for (const auto& e : list.value("items", json::array())) {
          int count = e.value("count", 1);
          per_pod[e.value("/involvedObject/name"_json_pointer, std::string())] += count;
          total += count;
        }
        return total >= 200;
      },
      [&] { return std::to_string(total) + " so far"; });
  ASSERT_TRUE(enough.ok()) << enough.ToString();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (const auto& [pod, count] : per_pod) EXPECT_EQ(count, 1) << pod;
  // One bucket for all Pods: burst 25, then 5 per second.
  EXPECT_LE(total, 25 + 5 * seconds + 5) << total << " Events in " << seconds << " s";
  std::cout << total << " Events for " << per_pod.size() << " Pods in " << seconds << " s\n";
}

TEST_F(ExtendedResourceTest, DuplicateHazardAndDevicePluginAreReportedAndCleared) {
  StartController();
  // A second class naming the same resource wins: it is newer or, created in
  // the same second, has the smaller name ('-' < '.').
  ASSERT_TRUE(cluster_->Apply(ClassManifest(kDupClass)).ok());
  ASSERT_TRUE(EventAppears("default", kClass, "DuplicateExtendedResourceName"));
  json mapping = CliJson({"mapping", "-o", "json"});
  EXPECT_TRUE(HasFinding(mapping, "DuplicateExtendedResourceName", kClass)) << mapping.dump(2);

  // Deleting the winner is the v1.37.2 order hazard: warned on the survivor.
  ASSERT_TRUE(cluster_->Kubectl({"delete", "deviceclass", kDupClass}).ok());
  ASSERT_TRUE(EventAppears("default", kClass, "ExtendedResourceMappingOrderHazard"));
  ASSERT_TRUE(EventAppears("default", kClass, "DuplicateExtendedResourceNameResolved"));
  // Any update of the survivor clears it.
  ASSERT_TRUE(
      cluster_->Kubectl({"label", "deviceclass", kClass, "touched=yes", "--overwrite"}).ok());
  ASSERT_TRUE(EventAppears("default", kClass, "ExtendedResourceMappingOrderHazardResolved"));

  // A device plugin on ext-a for the same name.
  ASSERT_TRUE(cluster_
                  ->Kubectl({"patch", "node", kNode, "--subresource=status", "--type=merge", "-p",
                             json{{"status", {{"allocatable", {{kResource, "2"}}}}}}.dump()})
                  .ok());
  ASSERT_TRUE(EventAppears("default", kNode, "DevicePluginOverlap"));
  ASSERT_TRUE(EventAppears("default", kClass, "DevicePluginOverlap"));
  mapping = CliJson({"mapping", "-o", "json"});
  EXPECT_TRUE(HasFinding(mapping, "DevicePluginOverlap", kNode)) << mapping.dump(2);
  ASSERT_TRUE(
      cluster_
          ->Kubectl({"patch", "node", kNode, "--subresource=status", "--type=json", "-p",
                     R"([{"op":"remove","path":"/status/allocatable/example.com~1ext-gpu"}])"})
          .ok());
  ASSERT_TRUE(EventAppears("default", kNode, "DevicePluginOverlapResolved"));
  mapping = CliJson({"mapping", "-o", "json"});
  EXPECT_FALSE(HasFinding(mapping, "DevicePluginOverlap", kNode)) << mapping.dump(2);
}

// The order hazard is state of kube-scheduler, not of the controller: a
// controller started after the winner left (a restart, or the other replica
// taking over) reads it off the Pods the scheduler refuses, `explain` reports
// it, and --repair-extended-resource-mapping repairs it.
TEST_F(ExtendedResourceTest, OrderHazardIsSeenAndRepairedAfterARestart) {
  StartController();
  ASSERT_TRUE(cluster_->Apply(ClassManifest(kDupClass)).ok());
  ASSERT_TRUE(EventAppears("default", kClass, "DuplicateExtendedResourceName"));
  ASSERT_TRUE(cluster_->Kubectl({"delete", "deviceclass", kDupClass}).ok());
  ASSERT_TRUE(EventAppears("default", kClass, "ExtendedResourceMappingOrderHazard"));
  controller_.reset();  // the controller that saw the winner leave is gone

  ASSERT_TRUE(
      cluster_
          ->Create(PodManifest("after", ns_, json::array({Container("main", {{kResource, "1"}})})))
          .ok());
  const std::string insufficient = std::string("Insufficient ") + kResource;
  auto refused = WaitFor("the scheduler refuses the Pod for " + insufficient, 60s, [&] {
    return SchedulerMessage("after").find(insufficient) != std::string::npos;
  });
  ASSERT_TRUE(refused.ok()) << refused.ToString() << " message: " << SchedulerMessage("after");

  int code = -1;
  json explained = CliJson({"explain", "pod", ns_ + "/after", "-o", "json"}, &code);
  EXPECT_EQ(code, 1) << explained.dump(2);
  EXPECT_FALSE(explained.value("schedulable", true)) << explained.dump(2);
  for (const auto& n : explained.value("nodes", json::array())) {
    EXPECT_EQ(n.value("reason", ""), "SchedulerUnmapped") << n.dump();
  }
  bool noted = false;
  for (const auto& note : explained.value("notes", json::array())) {
    noted |= note.get<std::string>().find("kube-scheduler has no DeviceClass") != std::string::npos;
  }
  EXPECT_TRUE(noted) << explained.dump(2);
  // `mapping` and `check` read the same evidence.
  json mapped = CliJson({"mapping", "-o", "json"}, &code);
  EXPECT_EQ(code, 1) << mapped.dump(2);
  EXPECT_TRUE(HasFinding(mapped, "ExtendedResourceMappingOrderHazard", kClass)) << mapped.dump(2);
  json checked = CliJson({"check", "-o", "json"});
  std::string hazard_check;
  for (const auto& r : checked.value("results", json::array())) {
    if (r.value("name", "") == "mapping-order-hazard") hazard_check = r.value("result", "");
  }
  EXPECT_EQ(hazard_check, "fail") << checked.dump(2);

  StartController({"--repair-extended-resource-mapping"});
  ASSERT_TRUE(EventAppears("default", kClass, "ExtendedResourceMappingRepaired"));
  // The Pod refused before the repair keeps its message until kube-scheduler
  // retries it: `explain` says when the class was touched and by when that
  // retry comes, and `mapping` no longer reports the hazard.
  if (NodeOf("after").empty() &&
      SchedulerMessage("after").find(insufficient) != std::string::npos) {
    explained = CliJson({"explain", "pod", ns_ + "/after", "-o", "json"}, &code);
    std::string notes = explained.value("notes", json::array()).dump();
    EXPECT_NE(notes.find("was touched at"), std::string::npos) << notes;
    EXPECT_NE(notes.find("unschedulable flush period"), std::string::npos) << notes;
    EXPECT_EQ(notes.find("Fix: touch the class"), std::string::npos) << notes;
    mapped = CliJson({"mapping", "-o", "json"});
    EXPECT_FALSE(HasFinding(mapped, "ExtendedResourceMappingOrderHazard", kClass))
        << mapped.dump(2);
  }
  EXPECT_TRUE(EventAppears("default", kClass, "ExtendedResourceMappingOrderHazardResolved"));
  // The scheduler maps the resource again: a new Pod is bound. (A Pod refused
  // before the repair waits for the scheduler to retry it.)
  ASSERT_TRUE(
      cluster_
          ->Create(PodManifest("next", ns_, json::array({Container("main", {{kResource, "1"}})})))
          .ok());
  auto bound = WaitFor("pod next bound", 60s, [&] { return !NodeOf("next").empty(); });
  ASSERT_TRUE(bound.ok()) << bound.ToString() << " message: " << SchedulerMessage("next");
  EXPECT_EQ(NodeOf("next"), kNode);
  explained = CliJson({"explain", "pod", ns_ + "/next", "-o", "json"}, &code);
  EXPECT_EQ(code, 0) << explained.dump(2);
}

}  // namespace
}  // namespace dra::testing
