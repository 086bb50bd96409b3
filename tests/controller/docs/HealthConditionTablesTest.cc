// The condition table of docs/health.md ("Status and conditions") against
// what the binary writes: every (condition, status, reason) the reconciler
// writes in the scenarios below is listed under that status, and every
// reason the table lists is one the reconciler writes there. A reason added
// to the code without its row (or a row for a reason the code no longer
// writes) fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "controller/health/DeviceHealthReconciler.h"
#include "src/base/FakeClock.h"
#include "tests/controller/health/FakeHealthApi.h"
#include "tests/controller/inventory/InventoryFixtures.h"
#include "tests/support/RepoRoot.h"

namespace dra::health {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using Triples = std::set<std::string>;  // "Condition Status Reason"

const char* const kConditions[] = {"Tainted", "Enforced", "DeviceFound"};

// The triples the docs list: "| `Tainted` | ... | `A`, `B`; `False`: `C` |".
Triples Documented() {
  std::ifstream in(dra::testing::RepoRoot::Path("docs/health.md"));
  Triples out;
  for (std::string line; std::getline(in, line);) {
    for (const char* condition : kConditions) {
      std::string head = std::string("| `") + condition + "` |";
      if (line.rfind(head, 0) != 0) continue;
      std::string reasons = line.substr(line.rfind(" | ", line.size() - 3) + 3);
      std::string status = "True";
      for (size_t at = reasons.find('`'); at != std::string::npos; at = reasons.find('`', at)) {
        size_t end = reasons.find('`', at + 1);
        std::string word = reasons.substr(at + 1, end - at - 1);
        at = end + 1;
        if ((word == "True" || word == "False") && reasons.compare(at, 1, ":") == 0) {
          status = word;
          continue;
        }
        out.insert(std::string(condition) + " " + status + " " + word);
      }
    }
  }
  return out;
}

// Plays scenarios through the reconciler and collects what it writes.
class Scenarios {
 public:
  Scenarios() {
    std::vector<api::Device> gpus;
    for (int i = 0; i < 4; ++i)
      gpus.push_back(dra::testing::Gpu("gpu-" + std::to_string(i), 80, "m"));
    inventory_.ApplySlice(dra::testing::Slice("node-a-slice", "node-a", gpus));
    for (const char* node : {"node-c", "node-d"}) {
      api::Device gpu = dra::testing::Gpu("gpu-7", 80, "m");
      gpu.attributes.emplace_back("uuid", api::AttributeValue(std::string("GPU-TWICE")));
      inventory_.ApplySlice(dra::testing::Slice(std::string(node) + "-slice", node, {gpu}));
    }
    // One slice of two published.
    inventory_.ApplySlice(
        dra::testing::Slice("node-e-slice", "node-e", {dra::testing::Gpu("gpu-0", 80, "m")}, 1, 2));
  }

  void Run(HealthOptions options, const std::string& name, json object) {
    if (!options.preview.count()) options.preview = 30s;
    DeviceHealthReconciler r(
        HealthSources{&healths_, &rules_, &inventory_}, api_, [](auto&, auto&, auto&, auto&) {},
        clock_, options, nullptr);
    object["metadata"]["generation"] = ++generation_;
    api_->Put(object);
    for (int i = 0; i < 4; ++i) (void)r.Reconcile(name);
    Collect(name);
  }

  void Step(std::chrono::seconds span) { clock_->Step(span); }
  void Erase(const std::string& name) { api_->Erase(name); }
  void PutRule(const json& rule) { ASSERT_TRUE(api_->ApplyRule(rule).ok()); }
  const Triples& written() const { return written_; }

 private:
  void Collect(const std::string& name) {
    for (const auto& c : api_->Status(name).value("conditions", json::array())) {
      std::string type = c.value("type", "");
      for (const char* condition : kConditions) {
        if (type == condition) {
          written_.insert(type + " " + c.value("status", "") + " " + c.value("reason", ""));
        }
      }
    }
  }

  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>(
      kube::Clock::TimePoint{}, std::chrono::system_clock::time_point(1'800'000'000s));
  kube::Store<api::DeviceHealth> healths_;
  kube::Store<api::DeviceTaintRule> rules_;
  inventory::Inventory inventory_;
  std::shared_ptr<FakeHealthApi> api_ = std::make_shared<FakeHealthApi>(healths_, rules_);
  int64_t generation_ = 0;
  Triples written_;
};

json ByUuid(const std::string& name, const std::string& uuid, const std::string& state) {
  json object = Health(name, "", "", state);
  object["spec"].erase("pool");
  object["spec"].erase("driver");
  object["spec"]["uuid"] = uuid;
  return object;
}

Triples WrittenByTheReconciler() {
  Scenarios s;
  HealthOptions plain;
  s.Run(plain, "degraded", Health("degraded", "node-a", "gpu-0", "Degraded"));
  s.Run(plain, "unhealthy", Health("unhealthy", "node-a", "gpu-1", "Unhealthy"));
  s.Step(31s);
  s.Run(plain, "unhealthy", Health("unhealthy", "node-a", "gpu-1", "Unhealthy"));
  s.Run(plain, "unhealthy", Health("unhealthy", "node-a", "gpu-1", "Unknown"));
  s.Run(plain, "unhealthy", Health("unhealthy", "node-a", "gpu-1", "Healthy"));
  s.Run(plain, "report", Health("report", "node-a", "gpu-2", "Unknown"));
  HealthOptions old_api;  // 1.34: no effect None
  old_api.none_effect_served = false;
  s.Run(old_api, "report-1.34", Health("report-1.34", "node-a", "gpu-2", "Unknown"));
  s.Run(plain, "healthy", Health("healthy", "node-a", "gpu-3", "Healthy"));
  HealthOptions no_storm_room;
  no_storm_room.preview = 1s;
  no_storm_room.storm_share = 0.0001;
  s.Step(2s);
  s.Run(no_storm_room, "storm", Health("storm", "node-a", "gpu-3", "Unhealthy"));
  s.Step(2s);
  s.Run(no_storm_room, "storm", Health("storm", "node-a", "gpu-3", "Unhealthy"));
  s.Run(plain, "invalid", Health("invalid", "node-a", "gpu-0", "Broken"));
  s.Run(plain, "degraded", Health("degraded", "node-a", "gpu-0", "Broken"));
  s.Run(plain, "missing", Health("missing", "node-z", "gpu-0", "Degraded"));
  s.Run(plain, "pool-incomplete", Health("pool-incomplete", "node-e", "gpu-0", "Degraded"));
  s.Run(plain, "twice", ByUuid("twice", "GPU-TWICE", "Degraded"));
  s.Run(plain, "nowhere", ByUuid("nowhere", "GPU-404", "Degraded"));
  // Ambiguous once a rule was written for it: that rule stays.
  s.Run(plain, "was-one", Health("was-one", "node-c", "gpu-7", "Degraded"));
  s.Run(plain, "was-one", ByUuid("was-one", "GPU-TWICE", "Degraded"));
  HealthOptions dry_run;
  dry_run.dry_run = true;
  s.Run(dry_run, "dry", Health("dry", "node-a", "gpu-0", "Degraded"));
  HealthOptions not_served = dry_run;
  not_served.dry_run_reason = "TaintRulesNotServed";
  s.Run(not_served, "not-served", Health("not-served", "node-a", "gpu-0", "Degraded"));
  json foreign = {{"apiVersion", "resource.k8s.io/v1"},
                  {"kind", "DeviceTaintRule"},
                  {"metadata", {{"name", "devicehealth-taken"}}},
                  {"spec",
                   {{"deviceSelector", {{"driver", "d"}}},
                    {"taint", {{"key", "k"}, {"effect", "NoSchedule"}}}}}};
  s.PutRule(foreign);
  s.Run(plain, "taken", Health("taken", "node-a", "gpu-0", "Degraded"));
  return s.written();
}

TEST(HealthConditionTablesTest, TheTableListsEveryReasonTheReconcilerWritesAndNoOther) {
  Triples documented = Documented();
  ASSERT_FALSE(documented.empty()) << "no condition table found in docs/health.md";
  Triples written = WrittenByTheReconciler();
  for (const auto& triple : written) {
    EXPECT_TRUE(documented.contains(triple)) << "written but not in the table: " << triple;
  }
  for (const auto& triple : documented) {
    EXPECT_TRUE(written.contains(triple)) << "in the table but never written: " << triple;
  }
}

}  // namespace
}  // namespace dra::health
