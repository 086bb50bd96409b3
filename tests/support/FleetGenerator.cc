#include "tests/support/FleetGenerator.h"

#include <algorithm>
#include <sstream>

namespace dra::testing {
namespace {

using nlohmann::json;

const std::vector<std::string> kDrivers{"gpu.agreement.example.com", "nic.agreement.example.com",
                                        "fpga.agreement.example.com"};
const std::vector<int> kMemories{24, 40, 80};
const std::vector<std::string> kEffects{"NoSchedule", "NoExecute", "None"};

std::string Short(const std::string& driver) { return driver.substr(0, driver.find('.')); }

std::string Gi(int gi) { return std::to_string(gi) + "Gi"; }

json TaintJson(const FleetTaint& taint) {
  json out = {{"key", taint.key}, {"effect", taint.effect}};
  if (!taint.value.empty()) out["value"] = taint.value;
  return out;
}

json CountersJson(const FleetCounter& counter) {
  return {{"counterSet", counter.counter_set},
          {"counters", {{"memory", {{"value", Gi(counter.memory_gi)}}}}}};
}

json DeviceJson(const std::string& driver, const FleetDevice& device) {
  json capacity = {{"value", Gi(device.memory_gi)}};
  if (device.allow_multiple) {
    capacity["requestPolicy"] = {{"default", "10Gi"}, {"validRange", {{"min", "10Gi"}}}};
  }
  json out = {{"name", device.name},
              {"attributes",
               {{"model", {{"string", device.model}}},
                {"index", {{"int", device.index}}},
                {driver + "/family", {{"string", Short(driver)}}}}},
              {"capacity", {{"memory", capacity}}}};
  for (const auto& taint : device.taints) out["taints"].push_back(TaintJson(taint));
  for (const auto& counter : device.consumes) {
    out["consumesCounters"].push_back(CountersJson(counter));
  }
  if (device.allow_multiple) out["allowMultipleAllocations"] = true;
  return out;
}

json TolerationJson(const FleetToleration& toleration) {
  json out = {{"key", toleration.key}, {"operator", toleration.op}};
  if (!toleration.value.empty()) out["value"] = toleration.value;
  if (!toleration.effect.empty()) out["effect"] = toleration.effect;
  return out;
}

json ExactJson(const FleetDeviceRequest& request) {
  json out = {{"deviceClassName", request.class_name}};
  if (!request.selector.Empty()) {
    out["selectors"] = json::array({{{"cel", {{"expression", SelectorCel(request.selector)}}}}});
  }
  if (request.all) {
    out["allocationMode"] = "All";
  } else {
    out["allocationMode"] = "ExactCount";
    out["count"] = request.count;
  }
  for (const auto& toleration : request.tolerations) {
    out["tolerations"].push_back(TolerationJson(toleration));
  }
  if (request.admin_access) out["adminAccess"] = true;
  if (request.capacity_memory_gi > 0) {
    out["capacity"] = {{"requests", {{"memory", Gi(request.capacity_memory_gi)}}}};
  }
  return out;
}

bool Tolerates(const FleetToleration& toleration, const FleetTaint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (toleration.key != taint.key) return false;
  return toleration.op == "Exists" || toleration.value == taint.value;
}

bool BlocksAlone(const FleetTaint& taint, const std::vector<FleetToleration>& tolerations) {
  if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") return false;
  for (const auto& toleration : tolerations) {
    if (Tolerates(toleration, taint)) return false;
  }
  return true;
}

std::string DescribeFilter(const DeviceFilter& filter) {
  return filter.Empty() ? "-" : SelectorCel(filter);
}

void DescribeRequest(std::ostringstream& out, const FleetDeviceRequest& r) {
  out << r.name << " class=" << r.class_name << " sel=" << DescribeFilter(r.selector)
      << (r.all ? " All" : " count=" + std::to_string(r.count));
  for (const auto& t : r.tolerations) {
    out << " tol(" << t.key << ' ' << t.op << ' ' << t.value << ' ' << t.effect << ')';
  }
  if (r.admin_access) out << " adminAccess";
  if (r.capacity_memory_gi > 0) out << " capacity=" << r.capacity_memory_gi << "Gi";
}

const std::vector<std::pair<std::string, bool Shapes::*>>& ShapeNames() {
  static const std::vector<std::pair<std::string, bool Shapes::*>> names{
      {"several_drivers", &Shapes::several_drivers},
      {"multi_slice_pools", &Shapes::multi_slice_pools},
      {"stale_generations", &Shapes::stale_generations},
      {"all_nodes_slices", &Shapes::all_nodes_slices},
      {"slice_taints", &Shapes::slice_taints},
      {"taint_rules", &Shapes::taint_rules},
      {"tolerations", &Shapes::tolerations},
      {"request_selectors", &Shapes::request_selectors},
      {"allocation_mode_all", &Shapes::allocation_mode_all},
      {"first_available", &Shapes::first_available},
      {"extended_resource_pods", &Shapes::extended_resource_pods},
      {"claim_pods", &Shapes::claim_pods},
      {"incomplete_pools", &Shapes::incomplete_pools},
      {"partitionable_devices", &Shapes::partitionable_devices},
      {"shared_devices", &Shapes::shared_devices},
      {"admin_access", &Shapes::admin_access},
      {"node_selectors", &Shapes::node_selectors}};
  return names;
}

}  // namespace

std::optional<Shapes> Shapes::Parse(const std::string& spec) {
  if (spec.empty() || spec == "default") return Default();
  if (spec == "all") return All();
  Shapes shapes;
  std::istringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    bool on = item.empty() || item.front() != '-';
    if (!item.empty() && (item.front() == '-' || item.front() == '+')) item.erase(0, 1);
    auto known = std::find_if(ShapeNames().begin(), ShapeNames().end(),
                              [&](const auto& entry) { return entry.first == item; });
    if (known == ShapeNames().end()) return std::nullopt;
    shapes.*(known->second) = on;
  }
  return shapes;
}

std::vector<std::string> Shapes::Off() const {
  std::vector<std::string> off;
  for (const auto& [name, member] : ShapeNames()) {
    if (!(this->*member)) off.push_back(name);
  }
  return off;
}

Shapes Shapes::All() { return Shapes{}; }

FleetGenerator::FleetGenerator(uint64_t seed, Shapes shapes, std::string prefix)
    : seed_(seed), shapes_(shapes), prefix_(std::move(prefix)), rng_(seed) {}

int FleetGenerator::Uniform(int lo, int hi) {
  // Not std::uniform_int_distribution: its output differs between standard
  // libraries, and a seed must name the same fleet everywhere.
  return lo + static_cast<int>(rng_() % static_cast<uint64_t>(hi - lo + 1));
}

bool FleetGenerator::Chance(int percent) { return Uniform(1, 100) <= percent; }

Fleet FleetGenerator::Generate() {
  Fleet fleet;
  fleet.seed = seed_;
  fleet.prefix = prefix_;
  int drivers = shapes_.several_drivers ? Uniform(2, 3) : 1;
  fleet.drivers.assign(kDrivers.begin(), kDrivers.begin() + drivers);
  AddNodes(fleet);
  for (const auto& driver : fleet.drivers) {
    AddPools(fleet, driver);
    AddClasses(fleet, driver);
  }
  AddTaintRules(fleet);
  AddRequests(fleet);
  return fleet;
}

void FleetGenerator::AddNodes(Fleet& fleet) {
  int count = Uniform(2, 4);
  for (int i = 0; i < count; ++i) {
    FleetNode node{prefix_ + "-n" + std::to_string(i), ""};
    if (shapes_.node_selectors) node.zone = Chance(50) ? "a" : "b";
    fleet.nodes.push_back(node);
  }
}

void FleetGenerator::AddPools(Fleet& fleet, const std::string& driver) {
  for (const auto& node : fleet.nodes) {
    if (!Chance(80)) continue;
    FleetSlice placement;
    placement.node = node.name;
    AddPool(fleet, driver, node.name, placement);
  }
  if (shapes_.all_nodes_slices && Chance(40)) {
    FleetSlice placement;
    placement.all_nodes = true;
    AddPool(fleet, driver, prefix_ + "-everywhere", placement);
  }
  if (shapes_.node_selectors && Chance(50)) {
    FleetSlice placement;
    placement.zone = Chance(50) ? "a" : "b";
    AddPool(fleet, driver, prefix_ + "-zone-" + placement.zone, placement);
  }
  if (shapes_.partitionable_devices && driver == fleet.drivers.front()) {
    for (const auto& node : fleet.nodes) {
      if (Chance(60)) AddPartitionablePool(fleet, driver, node);
    }
  }
}

FleetDevice FleetGenerator::NewDevice(const std::string& driver, int index) {
  FleetDevice device;
  device.name = "dev-" + std::to_string(index);
  device.index = index;
  device.model = Pick(DriverModels(driver));
  device.memory_gi = Pick(kMemories);
  if (shapes_.slice_taints && Chance(12)) {
    device.taints.push_back({"agreement.example.com/slice-" + std::to_string(Uniform(0, 1)),
                             Chance(50) ? "bad" : "", Pick(kEffects)});
  }
  if (shapes_.shared_devices && Chance(25)) device.allow_multiple = true;
  return device;
}

void FleetGenerator::AddPool(Fleet& fleet, const std::string& driver, const std::string& pool,
                             const FleetSlice& placement) {
  int slice_count = shapes_.multi_slice_pools ? Uniform(1, 3) : 1;
  int64_t generation = Uniform(1, 3);
  bool incomplete = shapes_.incomplete_pools && slice_count > 1 && Chance(15);
  int device_index = 0;
  auto slice_name = [&](const std::string& tag, int i) {
    std::string stem = pool.starts_with(prefix_) ? pool : prefix_ + "-" + pool;
    return stem + "-" + Short(driver) + "-" + tag + std::to_string(i);
  };
  for (int i = 0; i < slice_count; ++i) {
    if (incomplete && i == slice_count - 1) break;
    FleetSlice slice = placement;
    slice.name = slice_name("s", i);
    slice.driver = driver;
    slice.pool = pool;
    slice.generation = generation;
    slice.slice_count = slice_count;
    slice.incomplete = incomplete;
    int devices = Uniform(1, 3);
    for (int d = 0; d < devices; ++d) slice.devices.push_back(NewDevice(driver, device_index++));
    fleet.slices.push_back(std::move(slice));
  }
  if (shapes_.stale_generations && generation > 1 && Chance(35)) {
    // Left behind by the driver: an older generation with more devices,
    // which the scheduler ignores.
    FleetSlice slice = placement;
    slice.name = slice_name("old", 0);
    slice.driver = driver;
    slice.pool = pool;
    slice.generation = generation - 1;
    slice.slice_count = 1;
    slice.stale = true;
    for (int d = 0; d < 3; ++d) slice.devices.push_back(NewDevice(driver, 100 + d));
    fleet.slices.push_back(std::move(slice));
  }
}

// A MIG-style GPU: a counter slice with 80Gi of memory and a device slice
// with the whole GPU (80Gi) and two halves (40Gi each) consuming it.
void FleetGenerator::AddPartitionablePool(Fleet& fleet, const std::string& driver,
                                          const FleetNode& node) {
  std::string pool = node.name + "-mig";
  FleetSlice counters;
  counters.name = pool + "-" + Short(driver) + "-counters";
  counters.driver = driver;
  counters.pool = pool;
  counters.slice_count = 2;
  counters.node = node.name;
  counters.shared_counters.push_back({"gpu-0", 80});
  FleetSlice devices = counters;
  devices.name = pool + "-" + Short(driver) + "-devices";
  devices.shared_counters.clear();
  std::string model = DriverModels(driver).front();
  devices.devices.push_back({"gpu-0-full", model, 80, 0, {}, {{"gpu-0", 80}}, false});
  devices.devices.push_back({"gpu-0-half-0", model, 40, 1, {}, {{"gpu-0", 40}}, false});
  devices.devices.push_back({"gpu-0-half-1", model, 40, 2, {}, {{"gpu-0", 40}}, false});
  fleet.slices.push_back(std::move(counters));
  fleet.slices.push_back(std::move(devices));
}

void FleetGenerator::AddClasses(Fleet& fleet, const std::string& driver) {
  std::string base = prefix_ + "-" + Short(driver);
  auto resource = [](const std::string& name) { return "agreement.example.com/" + name; };
  // Every driver gets a class for all its devices with an extended resource,
  // so every fleet can serve extended-resource Pods.
  fleet.classes.push_back({base + "-any", {driver, "", 0}, resource(base + "-any")});
  std::string model = Pick(DriverModels(driver));
  FleetClass by_model{base + "-" + model, {driver, model, 0}, ""};
  if (Chance(50)) by_model.extended_resource = resource(by_model.name);
  fleet.classes.push_back(by_model);
  int floor = Chance(50) ? 40 : 80;
  FleetClass big{base + "-mem" + std::to_string(floor), {driver, "", floor}, ""};
  if (Chance(50)) big.extended_resource = resource(big.name);
  fleet.classes.push_back(big);
}

void FleetGenerator::AddTaintRules(Fleet& fleet) {
  if (!shapes_.taint_rules) return;
  int count = Uniform(0, 2);
  for (int i = 0; i < count; ++i) {
    const FleetSlice& slice = Pick(fleet.slices);
    if (slice.devices.empty()) continue;
    FleetTaintRule rule;
    rule.name = prefix_ + "-rule" + std::to_string(i);
    rule.driver = slice.driver;
    rule.pool = slice.pool;
    if (Chance(60)) rule.device = Pick(slice.devices).name;
    rule.taint = {"agreement.example.com/rule-" + std::to_string(Uniform(0, 1)), "",
                  Pick(kEffects)};
    fleet.rules.push_back(rule);
  }
}

void FleetGenerator::AddRequests(Fleet& fleet) {
  int count = Uniform(6, 10);
  for (int i = 0; i < count; ++i) {
    std::string name = prefix_ + "-r" + std::to_string(i);
    bool extended = shapes_.extended_resource_pods && (!shapes_.claim_pods || Chance(40));
    if (!extended && !shapes_.claim_pods) return;
    fleet.requests.push_back(extended ? NewExtendedRequest(fleet, name)
                                      : NewClaimRequest(fleet, name));
  }
}

FleetRequest FleetGenerator::NewExtendedRequest(const Fleet& fleet, const std::string& name) {
  std::vector<FleetClass> serving;
  for (const auto& c : fleet.classes) {
    if (!c.extended_resource.empty()) serving.push_back(c);
  }
  const FleetClass& chosen = Pick(serving);
  FleetRequest request;
  request.name = name;
  request.extended_resource = chosen.extended_resource;
  request.extended_class = chosen.name;
  request.extended_count = Uniform(1, 2);
  return request;
}

FleetRequest FleetGenerator::NewClaimRequest(const Fleet& fleet, const std::string& name) {
  FleetRequest request;
  request.name = name;
  // Requests of one claim use different drivers, so they never compete for
  // a device and each can be judged on its own.
  std::vector<std::string> drivers = fleet.drivers;
  int requests = drivers.size() > 1 && Chance(30) ? 2 : 1;
  for (int i = 0; i < requests; ++i) {
    size_t at = static_cast<size_t>(Uniform(0, static_cast<int>(drivers.size()) - 1));
    std::string driver = drivers[at];
    drivers.erase(drivers.begin() + static_cast<long>(at));
    FleetClaimRequest claim_request;
    claim_request.name = "req" + std::to_string(i);
    if (shapes_.first_available && Chance(25)) {
      for (int s = 0; s < 2; ++s) {
        claim_request.first_available.push_back(
            NewDeviceRequest(fleet, driver, "sub" + std::to_string(s)));
      }
    } else {
      claim_request.exactly = NewDeviceRequest(fleet, driver, claim_request.name);
    }
    request.claim.push_back(std::move(claim_request));
  }
  return request;
}

FleetDeviceRequest FleetGenerator::NewDeviceRequest(const Fleet& fleet, const std::string& driver,
                                                    const std::string& name) {
  std::vector<FleetClass> of_driver;
  for (const auto& c : fleet.classes) {
    if (c.filter.driver == driver) of_driver.push_back(c);
  }
  FleetDeviceRequest request;
  request.name = name;
  request.class_name = Pick(of_driver).name;
  if (shapes_.request_selectors && Chance(30)) {
    request.selector.driver = driver;
    if (Chance(50)) {
      request.selector.model = Pick(DriverModels(driver));
    } else {
      request.selector.min_memory_gi = Chance(50) ? 40 : 80;
    }
  }
  request.all = shapes_.allocation_mode_all && Chance(12);
  if (!request.all) request.count = Uniform(1, 2);
  auto keys = TaintKeys(fleet);
  if (shapes_.tolerations && !keys.empty() && Chance(35)) {
    FleetToleration toleration{Pick(keys), Chance(60) ? "Exists" : "Equal", "", ""};
    if (toleration.op == "Equal") toleration.value = Chance(50) ? "bad" : "";
    if (Chance(40)) toleration.effect = Pick(kEffects);
    request.tolerations.push_back(toleration);
  }
  if (shapes_.admin_access && Chance(10)) request.admin_access = true;
  if (shapes_.shared_devices && !request.all && Chance(25)) {
    request.capacity_memory_gi = Chance(50) ? 10 : 20;
  }
  return request;
}

std::vector<std::string> FleetGenerator::TaintKeys(const Fleet& fleet) const {
  std::vector<std::string> keys;
  auto add = [&](const std::string& key) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  };
  for (const auto& slice : fleet.slices) {
    for (const auto& device : slice.devices) {
      for (const auto& taint : device.taints) add(taint.key);
    }
  }
  for (const auto& rule : fleet.rules) add(rule.taint.key);
  return keys;
}

std::vector<std::string> DriverModels(const std::string& driver) {
  std::string s = Short(driver);
  return {s + "-small", s + "-large"};
}

bool Selects(const DeviceFilter& filter, const std::string& driver, const FleetDevice& device) {
  if (!filter.driver.empty() && filter.driver != driver) return false;
  if (!filter.model.empty() && filter.model != device.model) return false;
  return device.memory_gi >= filter.min_memory_gi;
}

std::string SelectorCel(const DeviceFilter& filter) {
  std::vector<std::string> terms;
  if (!filter.driver.empty()) terms.push_back("device.driver == \"" + filter.driver + "\"");
  if (!filter.model.empty()) {
    terms.push_back("device.attributes[\"" + filter.driver + "\"].model == \"" + filter.model +
                    "\"");
  }
  if (filter.min_memory_gi > 0) {
    terms.push_back("device.capacity[\"" + filter.driver + "\"].memory.compareTo(quantity(\"" +
                    Gi(filter.min_memory_gi) + "\")) >= 0");
  }
  if (terms.empty()) return "true";
  std::string out = terms.front();
  for (size_t i = 1; i < terms.size(); ++i) out += " && " + terms[i];
  return out;
}

bool Blocked(const Fleet& fleet, const FleetSlice& slice, const FleetDevice& device,
             const std::vector<FleetToleration>& tolerations) {
  for (const auto& taint : device.taints) {
    if (BlocksAlone(taint, tolerations)) return true;
  }
  for (const auto& rule : fleet.rules) {
    bool hits = rule.driver == slice.driver && rule.pool == slice.pool &&
                (rule.device.empty() || rule.device == device.name);
    if (hits && BlocksAlone(rule.taint, tolerations)) return true;
  }
  return false;
}

const FleetClass* FindClass(const Fleet& fleet, const std::string& name) {
  for (const auto& c : fleet.classes) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

json NodeManifest(const Fleet& fleet, const FleetNode& node) {
  json labels = {{"kubernetes.io/hostname", node.name}, {kFleetLabel, fleet.prefix}};
  if (!node.zone.empty()) labels[kZoneLabel] = node.zone;
  json allocatable = {{"cpu", "64"}, {"memory", "512Gi"}, {"pods", "110"}};
  json ready = {{"type", "Ready"},
                {"status", "True"},
                {"reason", "FakeKubeletReady"},
                {"message", "fake node for the agreement test; no kubelet runs"}};
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", node.name}, {"labels", labels}}},
          {"status",
           {{"capacity", allocatable},
            {"allocatable", allocatable},
            {"conditions", json::array({ready})}}}};
}

json SliceManifest(const Fleet& fleet, const FleetSlice& slice) {
  json spec = {{"driver", slice.driver},
               {"pool",
                {{"name", slice.pool},
                 {"generation", slice.generation},
                 {"resourceSliceCount", slice.slice_count}}}};
  if (!slice.node.empty()) {
    spec["nodeName"] = slice.node;
  } else if (slice.all_nodes) {
    spec["allNodes"] = true;
  } else {
    json requirement = {{"key", kZoneLabel}, {"operator", "In"}, {"values", {slice.zone}}};
    spec["nodeSelector"] = {
        {"nodeSelectorTerms", json::array({{{"matchExpressions", json::array({requirement})}}})}};
  }
  if (!slice.shared_counters.empty()) {
    for (const auto& c : slice.shared_counters) {
      spec["sharedCounters"].push_back(
          {{"name", c.counter_set}, {"counters", {{"memory", {{"value", Gi(c.memory_gi)}}}}}});
    }
  } else {
    spec["devices"] = json::array();
    for (const auto& device : slice.devices) {
      spec["devices"].push_back(DeviceJson(slice.driver, device));
    }
  }
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", slice.name}, {"labels", {{kFleetLabel, fleet.prefix}}}}},
          {"spec", spec}};
}

json ClassManifest(const Fleet& fleet, const FleetClass& device_class) {
  json spec = {
      {"selectors", json::array({{{"cel", {{"expression", SelectorCel(device_class.filter)}}}}})}};
  if (!device_class.extended_resource.empty()) {
    spec["extendedResourceName"] = device_class.extended_resource;
  }
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "DeviceClass"},
          {"metadata", {{"name", device_class.name}, {"labels", {{kFleetLabel, fleet.prefix}}}}},
          {"spec", spec}};
}

json TaintRuleManifest(const Fleet& fleet, const FleetTaintRule& rule) {
  json selector = {{"driver", rule.driver}, {"pool", rule.pool}};
  if (!rule.device.empty()) selector["device"] = rule.device;
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "DeviceTaintRule"},
          {"metadata", {{"name", rule.name}, {"labels", {{kFleetLabel, fleet.prefix}}}}},
          {"spec", {{"deviceSelector", selector}, {"taint", TaintJson(rule.taint)}}}};
}

json ClaimManifest(const FleetRequest& request, const std::string& ns) {
  json requests = json::array();
  for (const auto& r : request.claim) {
    json out = {{"name", r.name}};
    if (r.exactly) {
      out["exactly"] = ExactJson(*r.exactly);
    } else {
      for (const auto& sub : r.first_available) {
        json s = ExactJson(sub);
        s["name"] = sub.name;
        out["firstAvailable"].push_back(s);
      }
    }
    requests.push_back(out);
  }
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", request.ClaimName()}, {"namespace", ns}}},
          {"spec", {{"devices", {{"requests", requests}}}}}};
}

json PodManifest(const Fleet& fleet, const FleetRequest& request, const std::string& ns) {
  json container = {{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}};
  json spec = {{"automountServiceAccountToken", false},
               {"nodeSelector", {{kFleetLabel, fleet.prefix}}}};
  if (request.IsExtended()) {
    container["resources"] = {{"limits", {{request.extended_resource, request.extended_count}}}};
  } else {
    container["resources"] = {{"claims", json::array({{{"name", "devices"}}})}};
    spec["resourceClaims"] =
        json::array({{{"name", "devices"}, {"resourceClaimName", request.ClaimName()}}});
  }
  spec["containers"] = json::array({container});
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", request.name}, {"namespace", ns}}},
          {"spec", spec}};
}

std::string Describe(const Fleet& fleet) {
  std::ostringstream out;
  out << "fleet seed=" << fleet.seed << " prefix=" << fleet.prefix << "\n";
  for (const auto& node : fleet.nodes) {
    out << "  node " << node.name << (node.zone.empty() ? "" : " zone=" + node.zone) << "\n";
  }
  for (const auto& s : fleet.slices) {
    out << "  slice " << s.name << " driver=" << s.driver << " pool=" << s.pool
        << " gen=" << s.generation << " count=" << s.slice_count << " on="
        << (s.all_nodes      ? "allNodes"
            : s.node.empty() ? "zone " + s.zone
                             : s.node)
        << (s.stale ? " STALE" : "") << (s.incomplete ? " INCOMPLETE" : "") << "\n";
    for (const auto& c : s.shared_counters) {
      out << "    counterSet " << c.counter_set << " memory=" << c.memory_gi << "Gi\n";
    }
    for (const auto& d : s.devices) {
      out << "    " << d.name << " model=" << d.model << " memory=" << d.memory_gi << "Gi";
      for (const auto& t : d.taints)
        out << " taint(" << t.key << '=' << t.value << ':' << t.effect << ')';
      for (const auto& c : d.consumes)
        out << " consumes(" << c.counter_set << ' ' << c.memory_gi << "Gi)";
      out << (d.allow_multiple ? " shared" : "") << "\n";
    }
  }
  for (const auto& c : fleet.classes) {
    out << "  class " << c.name << " sel=" << SelectorCel(c.filter)
        << (c.extended_resource.empty() ? "" : " ext=" + c.extended_resource) << "\n";
  }
  for (const auto& r : fleet.rules) {
    out << "  rule " << r.name << " " << r.driver << "/" << r.pool << "/"
        << (r.device.empty() ? "*" : r.device) << " taint(" << r.taint.key << ':' << r.taint.effect
        << ")\n";
  }
  for (size_t i = 0; i < fleet.requests.size(); ++i) {
    const auto& r = fleet.requests[i];
    out << "  request #" << i << " " << r.name;
    if (r.IsExtended()) {
      out << " extended " << r.extended_resource << " x" << r.extended_count << "\n";
      continue;
    }
    out << " claim\n";
    for (const auto& cr : r.claim) {
      if (cr.exactly) {
        out << "    exactly ";
        DescribeRequest(out, *cr.exactly);
        out << "\n";
      }
      for (const auto& sub : cr.first_available) {
        out << "    " << cr.name << " firstAvailable ";
        DescribeRequest(out, sub);
        out << "\n";
      }
    }
  }
  return out.str();
}

}  // namespace dra::testing
