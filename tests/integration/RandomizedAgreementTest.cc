// The inventory against the real v1.37.2 scheduler, on random fleets
// (tests/support/FleetGenerator): for each seed the fleet is published, and
// its requests are made one by one. Before each, the inventory says on which
// nodes it would fit; the scheduler's placement (or refusal) must agree, and
// after each placement the inventory's free counts must equal a model of the
// fleet with the devices the scheduler allocated. The operator's views must
// say the same, being computed from one DeviceState per device: per class,
// the allocation metrics' allocatable and allocated, the rows `devices` shows
// free, and (for extended-resource Pods) the nodes `explain` says fit.
//
//   DRA_AGREEMENT_SEEDS=N        how many seeds (default 8), starting at
//   DRA_AGREEMENT_FIRST_SEED=S   the first (default 1)
//   DRA_AGREEMENT_SEED=S         just this one (what a failure prints)
//   DRA_AGREEMENT_SHAPES=...     "all", or shapes to switch on/off, e.g.
//                                "admin_access,-taint_rules" (Shapes::Parse)
#include <gtest/gtest.h>
#include <simdjson.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/PodExplainer.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "controller/metrics/AllocationMetrics.h"
#include "controller/report/DeviceListing.h"
#include "src/cache/InformerRegistry.h"
#include "tests/support/ClusterTest.h"
#include "tests/support/FleetGenerator.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const kube::ResourceType kNamespaces{"", "v1", "namespaces", false, "Namespace"};

struct SeedPlan {
  uint64_t first = 1;
  int seeds = 8;
  std::string shape_spec = "default";
  std::optional<Shapes> shapes = Shapes::Default();
};

SeedPlan PlanFromEnvironment() {
  SeedPlan run;
  if (const char* one = std::getenv("DRA_AGREEMENT_SEED")) {
    run.first = std::strtoull(one, nullptr, 10);
    run.seeds = 1;
  } else {
    if (const char* n = std::getenv("DRA_AGREEMENT_SEEDS")) run.seeds = std::atoi(n);
    if (const char* f = std::getenv("DRA_AGREEMENT_FIRST_SEED")) {
      run.first = std::strtoull(f, nullptr, 10);
    }
  }
  if (const char* shapes = std::getenv("DRA_AGREEMENT_SHAPES")) {
    run.shape_spec = shapes;
    run.shapes = Shapes::Parse(shapes);
  }
  return run;
}

// What the claims' allocations hold, by device (driver/pool/device).
// Results with adminAccess do not make a device allocated (the allocator
// skips them), so they are left out.
struct Allocated {
  std::map<std::string, int> uses;
  std::map<std::string, int> consumed_gi;  // consumedCapacity.memory of shared devices

  bool Used(const std::string& id) const { return uses.contains(id); }
};

std::string DeviceId(const std::string& driver, const std::string& pool, const std::string& name) {
  return driver + "/" + pool + "/" + name;
}

// "20Gi" -> 20; the generator only writes whole Gi.
int GiOf(const std::string& quantity) {
  return quantity.ends_with("Gi") ? std::atoi(quantity.c_str()) : 0;
}

bool Reaches(const Fleet& fleet, const FleetSlice& slice, const std::string& node) {
  if (node.empty() || slice.all_nodes) return true;
  if (!slice.node.empty()) return slice.node == node;
  for (const auto& n : fleet.nodes) {
    if (n.name == node) return !slice.zone.empty() && n.zone == slice.zone;
  }
  return false;
}

// What is left of a counter set of a pool after its allocated devices.
int CounterLeft(const Fleet& fleet, const Allocated& allocated, const FleetSlice& of_pool,
                const std::string& counter_set) {
  int left = 0;
  for (const auto& slice : fleet.slices) {
    if (slice.stale || slice.driver != of_pool.driver || slice.pool != of_pool.pool) continue;
    for (const auto& c : slice.shared_counters) {
      if (c.counter_set == counter_set) left += c.memory_gi;
    }
    for (const auto& device : slice.devices) {
      if (!allocated.Used(DeviceId(slice.driver, slice.pool, device.name))) continue;
      for (const auto& c : device.consumes) {
        if (c.counter_set == counter_set) left -= c.memory_gi;
      }
    }
  }
  return left;
}

// Whether a device not blocked by taints could be given to one more
// request: an unallocated device whose counters are still available, or a
// shared device with the default request's 10Gi of memory left.
bool Available(const Fleet& fleet, const Allocated& allocated, const FleetSlice& slice,
               const FleetDevice& device) {
  std::string id = DeviceId(slice.driver, slice.pool, device.name);
  if (device.allow_multiple) {
    auto consumed = allocated.consumed_gi.find(id);
    return device.memory_gi - (consumed == allocated.consumed_gi.end() ? 0 : consumed->second) >=
           10;
  }
  if (allocated.Used(id)) return false;
  for (const auto& c : device.consumes) {
    if (CounterLeft(fleet, allocated, slice, c.counter_set) < c.memory_gi) return false;
  }
  return true;
}

// The free/total/allocated figures the scheduler's rules give for a class
// on a node (all nodes when empty): newest generation only, incomplete pools
// never free, NoSchedule/NoExecute taints of slices and rules block.
struct Expected {
  int total = 0, allocated = 0, free = 0, incomplete = 0;
  bool operator==(const Expected&) const = default;
};

Expected Model(const Fleet& fleet, const Allocated& allocated, const FleetClass& device_class,
               const std::string& node) {
  Expected out;
  for (const auto& slice : fleet.slices) {
    if (slice.stale || !Reaches(fleet, slice, node)) continue;
    for (const auto& device : slice.devices) {
      if (!Selects(device_class.filter, slice.driver, device)) continue;
      ++out.total;
      out.allocated += allocated.Used(DeviceId(slice.driver, slice.pool, device.name));
      out.incomplete += slice.incomplete;
      if (!slice.incomplete && !Blocked(fleet, slice, device) &&
          Available(fleet, allocated, slice, device)) {
        ++out.free;
      }
    }
  }
  return out;
}

Expected Seen(const inventory::DeviceCounts& c) {
  return {c.total, c.allocated, c.free, c.incomplete_pool};
}

std::string Show(const Expected& e) {
  return "total=" + std::to_string(e.total) + " allocated=" + std::to_string(e.allocated) +
         " free=" + std::to_string(e.free) + " incomplete=" + std::to_string(e.incomplete);
}

// The sum of `family`'s samples per device_class in a text exposition.
std::map<std::string, double> SumByClass(const std::string& exposition, const std::string& family) {
  std::map<std::string, double> out;
  std::istringstream in(exposition);
  const std::string key = "device_class=\"";
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(family + "{")) continue;
    size_t at = line.find(key);
    size_t close = line.rfind('}');
    if (at == std::string::npos || close == std::string::npos) continue;
    at += key.size();
    std::string device_class = line.substr(at, line.find('"', at) - at);
    out[device_class] += std::strtod(line.c_str() + close + 1, nullptr);
  }
  return out;
}

// What the scheduler decided: the node, or "" with the refusal message.
struct Decision {
  std::string node;
  std::string refusal;
};

class RandomizedAgreementTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    informers_ = std::make_unique<kube::InformerRegistry>(client_);
    feeds_ = std::make_unique<inventory::InventoryInformers>(*informers_, inventory_);
    informers_->StartAll();
    ASSERT_TRUE(feeds_->WaitForSync(30s)) << "DRA informers did not sync";
  }

  void TearDown() override {
    if (informers_) informers_->StopAll();
    if (!cluster_) return;
    for (const auto& ns : namespaces_) cluster_->DeleteTestNamespace(ns);
    (void)DeleteFleetObjects();
  }

  // ---- the cluster side ----

  // Rules and classes first, nodes last: the scheduler's informers are
  // independent, and a rule it has not seen yet would let it use a device
  // the inventory already counts as tainted.
  kube::Status CreateFleet(const Fleet& fleet) {
    for (const auto& rule : fleet.rules) {
      auto created =
          client_->Create(api::DeviceTaintRule::kResource, "", TaintRuleManifest(fleet, rule));
      if (!created.ok()) return created.status();
    }
    for (const auto& c : fleet.classes) {
      auto created = client_->Create(api::DeviceClass::kResource, "", ClassManifest(fleet, c));
      if (!created.ok()) return created.status();
    }
    for (const auto& slice : fleet.slices) {
      auto created =
          client_->Create(api::ResourceSlice::kResource, "", SliceManifest(fleet, slice));
      if (!created.ok()) return created.status();
    }
    for (const auto& node : fleet.nodes) {
      auto created = client_->Create(api::NodeView::kResource, "", NodeManifest(fleet, node));
      if (!created.ok()) return created.status();
      // The TaintNodesByCondition admission plugin marks new nodes
      // not-ready; no node lifecycle controller runs to lift it.
      auto patched = client_->Patch(api::NodeView::kResource.ItemPath("", node.name),
                                    kube::PatchType::kMerge, R"({"spec":{"taints":null}})");
      if (!patched.ok()) return patched.status();
    }
    return kube::Status::Ok();
  }

  // A refusal of a Pod the inventory says fits can be the scheduler's caches
  // lagging behind the fleet just created (seen: "0/2 nodes are available: 2
  // Insufficient <resource>" with three nodes and the class just created).
  // It retries such Pods when the missing objects arrive; wait for that.
  void AwaitLatePlacement(const std::string& ns, const std::string& name, Decision& decision) {
    auto started = Clock::now();
    auto placed = WaitFor("a late placement of " + name, 30s, [&] {
      decision.node = GetPod(ns, name).value("/spec/nodeName"_json_pointer, std::string());
      return !decision.node.empty();
    });
    if (!placed.ok()) return;
    ++late_placements_;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    std::cout << "[agreement] " << name << " placed " << ms.count()
              << " ms after a refusal: " << decision.refusal << std::endl;
  }

  std::vector<const kube::ResourceType*> FleetTypes() const {
    return {&api::DeviceTaintRule::kResource, &api::DeviceClass::kResource,
            &api::ResourceSlice::kResource, &api::NodeView::kResource};
  }

  // Deletes every generated cluster-scoped object (this run's or one a
  // crashed run left) and waits until they are gone.
  kube::Status DeleteFleetObjects() {
    kube::ListOptions options;
    options.label_selector = kFleetLabel;
    for (const auto* type : FleetTypes()) {
      auto list = client_->List(*type, "", options);
      if (!list.ok()) return list.status();
      for (const auto& item : (*list)["items"]) {
        auto name = item["metadata"]["name"].get<std::string>();
        auto deleted = client_->DeleteIfExists(type->ItemPath("", name));
        if (!deleted.ok()) return deleted;
      }
    }
    return WaitFor("generated nodes, slices, classes and rules to be gone", 60s, [&] {
      for (const auto* type : FleetTypes()) {
        auto list = client_->List(*type, "", options);
        if (!list.ok() || !(*list)["items"].empty()) return false;
      }
      return true;
    });
  }

  json GetPod(const std::string& ns, const std::string& name) {
    auto pod = client_->Get(api::PodView::kResource.ItemPath(ns, name));
    return pod.ok() ? *pod : json();
  }

  kube::Result<Decision> AwaitDecision(const std::string& ns, const std::string& name) {
    Decision decision;
    json pod;
    auto decided = WaitFor(
        "the scheduler to place or refuse " + name, 60s,
        [&] {
          pod = GetPod(ns, name);
          decision.node = pod.value("/spec/nodeName"_json_pointer, std::string());
          if (!decision.node.empty()) return true;
          for (const auto& c : pod.value("/status/conditions"_json_pointer, json::array())) {
            // A fit error ("0/N nodes are available: ..."), not the wait
            // for a claim the scheduler has not seen yet; or an error of a
            // Filter plugin, which gives up on the Pod on every node.
            if (c.value("type", "") != "PodScheduled" || c.value("status", "") != "False") continue;
            auto reason = c.value("reason", "");
            auto message = c.value("message", "");
            if ((reason == "Unschedulable" && message.starts_with("0/")) ||
                reason == "SchedulerError") {
              decision.refusal = reason + ": " + message;
              return true;
            }
          }
          return false;
        },
        [&] { return pod.value("status", json()).dump(); });
    if (!decided.ok()) return decided;
    return decision;
  }

  // Every device allocated to a claim in `ns`.
  kube::Result<Allocated> AllocatedDevices(const std::string& ns) {
    auto claims = client_->List(api::ResourceClaim::kResource, ns, {});
    if (!claims.ok()) return claims.status();
    Allocated out;
    for (const auto& claim : (*claims)["items"]) {
      auto results = claim.value("/status/allocation/devices/results"_json_pointer, json::array());
      for (const auto& r : results) {
        if (r.value("adminAccess", false)) continue;
        auto id = DeviceId(r.value("driver", ""), r.value("pool", ""), r.value("device", ""));
        ++out.uses[id];
        out.consumed_gi[id] +=
            GiOf(r.value("/consumedCapacity/memory"_json_pointer, std::string()));
      }
    }
    return out;
  }

  // ---- the inventory side ----

  std::optional<api::ResourceClaim> ParseClaim(const json& manifest) {
    simdjson::dom::parser parser;
    auto doc = parser.parse(manifest.dump());
    if (doc.error()) return std::nullopt;
    auto claim = api::ResourceClaim::FromJson(doc.value());
    if (!claim.ok()) return std::nullopt;
    return *claim;
  }

  // The inventory's verdict for one request on one node. A claim is judged
  // whole (Inventory::CheckClaim); `aborts` is set when the allocator would
  // fail with an error there, which makes the scheduler give up on the Pod
  // on every node.
  bool Fits(const FleetRequest& request, const std::string& ns, const std::string& node,
            std::ostringstream& why, bool& aborts) {
    if (request.IsExtended()) {
      auto c = inventory_.Count(request.extended_class, node);
      why << " [" << request.extended_class << " free=" << c.free << "]";
      return !c.selector_error && c.free >= request.extended_count;
    }
    auto claim = ParseClaim(ClaimManifest(request, ns));
    if (!claim) {
      why << " [claim does not parse]";
      return false;
    }
    inventory::ClaimFit fit = inventory_.CheckClaim(*claim, node);
    if (fit.fits) {
      why << " fits:";
      for (const auto& device : fit.devices) why << " " << device;
    } else {
      why << (fit.aborts ? " aborts: " : " does not fit: ") << fit.reason;
    }
    aborts = aborts || fit.aborts;
    return fit.fits;
  }

  // The nodes `explain` says can take an extended-resource Pod now (as the
  // operator command computes it, from the inventory).
  std::set<std::string> ExplainFits(const Fleet& fleet, const FleetRequest& request,
                                    const std::string& ns) {
    // As the API server stores the Pod: quantities as strings, and requests
    // defaulted from the limits (the projection reads no numbers).
    auto manifest = PodManifest(fleet, request, ns);
    for (auto& container : manifest["spec"]["containers"]) {
      auto& resources = container["resources"];
      if (!resources.contains("limits")) continue;
      for (auto& [name, quantity] : resources["limits"].items()) {
        if (quantity.is_number()) quantity = quantity.dump();
      }
      resources["requests"] = resources["limits"];
    }
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(manifest.dump()).get(doc) != simdjson::SUCCESS) {
      return {"<the Pod's manifest does not parse>"};
    }
    auto pod = api::PodView::FromJson(doc);
    if (!pod.ok()) return {"<the Pod does not decode: " + pod.status().ToString() + ">"};
    std::set<std::string> out;
    std::vector<std::shared_ptr<const api::NodeView>> nodes;
    for (const auto& node : fleet.nodes) {
      auto view = std::make_shared<api::NodeView>();
      view->meta.name = node.name;
      nodes.push_back(std::move(view));
    }
    auto mapping = extended::ExtendedResourceMapping::Build(inventory_.ClassObjects());
    auto explanation = extended::PodExplainer::Explain(*pod, {mapping, nodes, inventory_, {}, {}});
    for (const auto& verdict : explanation.nodes) {
      if (verdict.reason == extended::NodeVerdict::Reason::kFits) out.insert(verdict.node);
    }
    return out;
  }

  // Per class over the fleet: the metrics' allocatable and allocated, and
  // the rows `devices` shows free, against the model; and published =
  // allocatable + unavailable. "" when they agree.
  std::string ViewsDisagree(const Fleet& fleet, const Allocated& allocated) {
    std::string diff;
    metrics::MetricsSources sources;
    sources.inventory = &inventory_;
    std::string text = metrics::AllocationMetrics(sources).Render();
    auto allocatable = SumByClass(text, "dra_controller_devices_allocatable");
    auto held = SumByClass(text, "dra_controller_devices_allocated");
    auto published = SumByClass(text, "dra_controller_devices_published");
    auto unavailable = SumByClass(text, "dra_controller_devices_unavailable");
    for (const auto& c : fleet.classes) {
      Expected want = Model(fleet, allocated, c, "");
      if (inventory_.Count(c.name).selector_error) continue;  // free is 0 wherever it fails
      auto free_rows = report::DeviceListing::Build(inventory_, {"", c.name, "", "free"}).size();
      auto show = [&](const char* what, double got, double expected) {
        if (got == expected) return;
        diff += "  class " + c.name + ": " + what + " " + std::to_string(got) + ", expected " +
                std::to_string(expected) + "\n";
      };
      show("metrics allocatable", allocatable[c.name], want.free);
      show("metrics allocated", held[c.name], want.allocated);
      show("metrics published", published[c.name], want.total);
      show("metrics allocatable + unavailable", allocatable[c.name] + unavailable[c.name],
           published[c.name]);
      show("`devices` free rows", static_cast<double>(free_rows), want.free);
    }
    return diff;
  }

  // Waits until the inventory's counts of every class, on every node and
  // cluster-wide, equal the model, and the operator's views agree with it;
  // "" on success, else the differences.
  std::string AwaitCounts(const Fleet& fleet, const Allocated& allocated) {
    std::string diff;
    auto reached = WaitFor("the inventory to match the model", 20s, [&] {
      diff = ViewsDisagree(fleet, allocated);
      for (const auto& c : fleet.classes) {
        std::vector<std::string> nodes{""};
        for (const auto& n : fleet.nodes) nodes.push_back(n.name);
        for (const auto& node : nodes) {
          Expected want = Model(fleet, allocated, c, node);
          Expected got = Seen(inventory_.Count(c.name, node));
          if (want == got) continue;
          diff += "  class " + c.name + " node " + (node.empty() ? "(all)" : node) +
                  ": inventory " + Show(got) + ", expected " + Show(want) + "\n";
        }
      }
      return diff.empty();
    });
    return reached.ok() ? "" : diff;
  }

  std::string Reproduce(uint64_t seed) const {
    return "reproduce: DRA_AGREEMENT_SEED=" + std::to_string(seed) +
           (run_.shape_spec == "default" ? "" : " DRA_AGREEMENT_SHAPES=" + run_.shape_spec) +
           " build/tests/integration_tests --gtest_filter='RandomizedAgreement*'";
  }

  // "agr<seed>-<run>": the fleet's shape depends on the seed alone, and no
  // run reuses the object names of an earlier one. Seed 6 was refused a free
  // device twice in a row on a cluster that had run seed 6 three times
  // before under the same names, and agreed on the next try.
  std::string Prefix(uint64_t seed) const { return "agr" + std::to_string(seed) + "-" + run_id_; }

  // One fleet: publish, request, compare, clean up. False on a disagreement.
  bool RunSeed(uint64_t seed);
  bool RunRequest(const Fleet& fleet, const std::string& ns, size_t index,
                  std::vector<std::string>& refused);

  SeedPlan run_ = PlanFromEnvironment();
  inventory::Inventory inventory_;
  std::unique_ptr<kube::InformerRegistry> informers_;
  std::unique_ptr<inventory::InventoryInformers> feeds_;
  std::vector<std::string> namespaces_;
  int placed_ = 0;
  int refusals_ = 0;
  int late_placements_ = 0;
  int aborted_ = 0;  // requests the inventory expected the allocator to fail with an error
  std::string run_id_ = [] {
    std::random_device random;
    char id[8];
    std::snprintf(id, sizeof(id), "%04x", random() & 0xffff);
    return std::string(id);
  }();
};

bool RandomizedAgreementTest::RunRequest(const Fleet& fleet, const std::string& ns, size_t index,
                                         std::vector<std::string>& refused) {
  const FleetRequest& request = fleet.requests[index];
  std::ostringstream verdict;
  std::set<std::string> fitting;
  bool aborts = false;
  for (const auto& node : fleet.nodes) {
    verdict << "\n    " << node.name << ":";
    if (Fits(request, ns, node.name, verdict, aborts)) fitting.insert(node.name);
  }
  if (aborts) {
    fitting.clear();
    ++aborted_;
  }
  std::optional<std::set<std::string>> explained;
  if (request.IsExtended()) explained = ExplainFits(fleet, request, ns);
  if (!request.IsExtended()) {
    auto claim = client_->Create(api::ResourceClaim::kResource, ns, ClaimManifest(request, ns));
    EXPECT_TRUE(claim.ok()) << claim.status().ToString();
    if (!claim.ok()) return false;
  }
  auto pod = client_->Create(api::PodView::kResource, ns, PodManifest(fleet, request, ns));
  EXPECT_TRUE(pod.ok()) << pod.status().ToString();
  if (!pod.ok()) return false;
  auto decision = AwaitDecision(ns, request.name);
  EXPECT_TRUE(decision.ok()) << decision.status().ToString();
  if (!decision.ok()) return false;

  if (decision->node.empty() && !fitting.empty()) AwaitLatePlacement(ns, request.name, *decision);
  bool agree = decision->node.empty() ? fitting.empty() : fitting.contains(decision->node);
  auto allocated = AllocatedDevices(ns);
  std::string counts = allocated.ok() ? AwaitCounts(fleet, *allocated) : "claims not listed";
  if (explained && *explained != fitting) {
    std::string nodes;
    for (const auto& n : *explained) nodes += " " + n;
    counts += "  `explain` says it fits on {" + nodes + " }\n";
  }
  for (const auto& name : refused) {
    if (!GetPod(ns, name).value("/spec/nodeName"_json_pointer, std::string()).empty()) {
      counts += "  pod " + name + ", refused before, was placed later\n";
    }
  }
  if (agree && counts.empty()) {
    if (decision->node.empty()) refused.push_back(request.name);
    (decision->node.empty() ? refusals_ : placed_)++;
    return true;
  }
  ADD_FAILURE() << "seed " << fleet.seed << ", request #" << index << " (" << request.name
                << "): the inventory said it fits on {" <<
      [&] {
        std::string s;
        for (const auto& n : fitting) s += (s.empty() ? "" : ", ") + n;
        return s;
      }() << "}" << verdict.str()
                << "\n  the scheduler "
                << (decision->node.empty() ? "refused: " + decision->refusal
                                           : "placed it on " + decision->node)
                << "\n"
                << (counts.empty() ? "" : "free counts after it:\n" + counts)
                << "  devices the claims hold:" <<
      [&] {
        std::string s;
        if (allocated.ok()) {
          for (const auto& [id, n] : allocated->uses) s += " " + id;
        }
        return s;
      }() << "\n"
                << Describe(fleet) << Reproduce(fleet.seed);
  return false;
}

bool RandomizedAgreementTest::RunSeed(uint64_t seed) {
  auto started = Clock::now();
  Fleet fleet = FleetGenerator(seed, *run_.shapes, Prefix(seed)).Generate();
  std::cout << "[agreement] seed " << seed << ": " << fleet.nodes.size() << " nodes, "
            << fleet.slices.size() << " slices, " << fleet.classes.size() << " classes, "
            << fleet.rules.size() << " rules, " << fleet.requests.size() << " requests"
            << std::endl;
  auto cleaned = DeleteFleetObjects();
  EXPECT_TRUE(cleaned.ok()) << cleaned.ToString();
  auto ns = cluster_->CreateTestNamespace("agreement");
  EXPECT_TRUE(ns.ok()) << ns.status().ToString();
  if (!cleaned.ok() || !ns.ok()) return false;
  namespaces_.push_back(*ns);
  if (run_.shapes->admin_access) {
    (void)cluster_->Kubectl(
        {"label", "namespace", *ns, "resource.kubernetes.io/admin-access=true", "--overwrite"});
  }
  auto created = CreateFleet(fleet);
  EXPECT_TRUE(created.ok()) << created.ToString() << "\n" << Describe(fleet);
  bool ok = created.ok();
  if (ok) {
    std::string diff = AwaitCounts(fleet, {});
    EXPECT_EQ(diff, "") << "seed " << seed << ": the published fleet\n"
                        << Describe(fleet) << Reproduce(seed);
    ok = diff.empty();
  }
  std::vector<std::string> refused;
  for (size_t i = 0; ok && i < fleet.requests.size(); ++i) {
    ok = RunRequest(fleet, *ns, i, refused);
  }
  cluster_->DeleteTestNamespace(*ns);
  auto removed = DeleteFleetObjects();
  EXPECT_TRUE(removed.ok()) << removed.ToString();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  std::cout << "[agreement] seed " << seed << (ok ? " agreed" : " DISAGREED") << " in "
            << ms.count() << " ms" << std::endl;
  return ok;
}

TEST_F(RandomizedAgreementTest, InventoryVerdictsAndFreeCountsMatchTheScheduler) {
  ASSERT_TRUE(run_.shapes.has_value())
      << "DRA_AGREEMENT_SHAPES=" << run_.shape_spec << ": unknown shape name";
  std::string off;
  for (const auto& name : run_.shapes->Off()) off += " " + name;
  std::cout << "[agreement] seeds " << run_.first << ".." << run_.first + run_.seeds - 1
            << ", shapes " << run_.shape_spec << " (off:" << (off.empty() ? " none" : off) << ")"
            << std::endl;
  auto started = Clock::now();
  int failed = 0;
  for (int i = 0; i < run_.seeds; ++i) failed += !RunSeed(run_.first + static_cast<uint64_t>(i));
  // Namespaces go last: their claims wait for kube-controller-manager.
  for (const auto& ns : namespaces_) {
    auto gone = WaitFor("namespace " + ns + " to be gone", 120s, [&] {
      return client_->Get(kNamespaces.ItemPath("", ns)).status().code() ==
             kube::StatusCode::kNotFound;
    });
    EXPECT_TRUE(gone.ok()) << gone.ToString();
  }
  namespaces_.clear();
  auto s = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started);
  std::cout << "[agreement] " << run_.seeds - failed << "/" << run_.seeds << " seeds agreed; "
            << placed_ << " Pods placed (" << late_placements_ << " after a first refusal), "
            << refusals_ << " refused (" << aborted_ << " expected as allocator errors); "
            << s.count() << " s" << std::endl;
}

}  // namespace
}  // namespace dra::testing
