#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace dra::testing {

// Which fleet and request shapes FleetGenerator produces. Default() enables
// every shape (the inventory models them all); each can be switched off to
// narrow a failure down.
struct Shapes {
  bool several_drivers = true;      // 2-3 drivers instead of one
  bool multi_slice_pools = true;    // pools of 1-3 slices (resourceSliceCount)
  bool stale_generations = true;    // slices of an older pool generation left behind
  bool all_nodes_slices = true;     // pools with allNodes: true
  bool slice_taints = true;         // taints in a slice's device entries
  bool taint_rules = true;          // DeviceTaintRules on a pool or a device
  bool tolerations = true;          // claim requests tolerating some taints
  bool request_selectors = true;    // claim requests with their own CEL selectors
  bool allocation_mode_all = true;  // allocationMode: All
  bool first_available = true;      // firstAvailable with two subrequests
  bool extended_resource_pods = true;
  bool claim_pods = true;
  bool shared_devices = true;  // allowMultipleAllocations + capacity requests (issue 13 item 3)
  bool node_selectors = true;  // slice nodeSelector on labelled nodes (issue 13 item 4)
  // The three shapes below make the allocator refuse claims whose requests
  // each fit alone; the test judges a claim whole (Inventory::CheckClaim).
  // A pool whose newest generation misses a slice: an allocationMode All
  // request on a node that any incomplete pool reaches (of any driver) makes
  // the v1.37.2 allocator fail with an error, which aborts the Pod on every
  // node (seeds 3, 4, 7 before the claim-level check).
  bool incomplete_pools = true;
  // Counter slice + devices consuming counters (item 2): an All request over
  // a class that matches a full GPU and its halves cannot get them all at
  // once (their consumption exceeds the counter set), while every device
  // alone is free (seeds 104, 113, 125).
  bool partitionable_devices = true;
  // adminAccess requests (item 1). Within one claim a device serves one
  // request only, adminAccess included. A firstAvailable subrequest may get
  // `adminAccess: true` too, which resource.k8s.io/v1 does not have: the API
  // server drops it and the subrequest is an ordinary one (seed 13: an "admin"
  // All subrequest over devices another claim holds is refused).
  bool admin_access = true;

  static Shapes Default() { return Shapes{}; }
  static Shapes All();
  // "default", "all", or a comma list changing Default(): "name" or "+name"
  // switches a shape on, "-name" off (names as the members above).
  // nullopt for an unknown name.
  static std::optional<Shapes> Parse(const std::string& spec);
  // The names of the shapes that are off.
  std::vector<std::string> Off() const;
};

struct FleetTaint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule | NoExecute | None
};

struct FleetToleration {
  std::string key;
  std::string op;  // Exists | Equal
  std::string value;
  std::string effect;  // empty: every effect
};

struct FleetCounter {
  std::string counter_set;
  int memory_gi = 0;
};

struct FleetDevice {
  std::string name;
  std::string model;
  int memory_gi = 0;
  int index = 0;
  std::vector<FleetTaint> taints;
  std::vector<FleetCounter> consumes;  // partitionable devices
  bool allow_multiple = false;         // shared devices
};

struct FleetSlice {
  std::string name;
  std::string driver;
  std::string pool;
  int64_t generation = 1;
  int slice_count = 1;  // the pool's resourceSliceCount in this generation
  std::string node;     // nodeName; empty with all_nodes or a node selector
  bool all_nodes = false;
  std::string zone;  // nodeSelector on the zone label when not empty
  std::vector<FleetDevice> devices;
  std::vector<FleetCounter> shared_counters;  // a counter slice carries only these
  bool stale = false;                         // an older generation than the pool's newest
  bool incomplete = false;                    // its pool's newest generation misses a slice
};

struct FleetNode {
  std::string name;
  std::string zone;
};

// Selects devices: a driver and, optionally, a model or a memory floor.
struct DeviceFilter {
  std::string driver;  // empty: any (request selectors)
  std::string model;
  int min_memory_gi = 0;

  bool Empty() const { return driver.empty() && model.empty() && min_memory_gi == 0; }
};

struct FleetClass {
  std::string name;
  DeviceFilter filter;
  std::string extended_resource;  // empty: none
};

struct FleetTaintRule {
  std::string name;
  std::string driver;
  std::string pool;
  std::string device;  // empty: the whole pool
  FleetTaint taint;
};

struct FleetDeviceRequest {
  std::string name;
  std::string class_name;
  DeviceFilter selector;  // the request's own selector; Empty() for none
  bool all = false;       // allocationMode All
  int count = 1;
  std::vector<FleetToleration> tolerations;
  bool admin_access = false;
  int capacity_memory_gi = 0;  // shared devices: capacity.requests.memory
};

struct FleetClaimRequest {
  std::string name;
  std::optional<FleetDeviceRequest> exactly;
  std::vector<FleetDeviceRequest> first_available;
};

struct FleetRequest {
  std::string name;               // the Pod's; the claim is "<name>-claim"
  std::string extended_resource;  // an extended-resource Pod when not empty
  std::string extended_class;     // the class serving it
  int extended_count = 0;
  std::vector<FleetClaimRequest> claim;  // a ResourceClaim Pod otherwise

  bool IsExtended() const { return !extended_resource.empty(); }
  std::string ClaimName() const { return name + "-claim"; }
};

struct Fleet {
  uint64_t seed = 0;
  std::string prefix;  // starts every object name
  std::vector<std::string> drivers;
  std::vector<FleetNode> nodes;
  std::vector<FleetSlice> slices;
  std::vector<FleetClass> classes;
  std::vector<FleetTaintRule> rules;
  std::vector<FleetRequest> requests;
};

// The label every generated cluster-scoped object carries (value: prefix).
inline constexpr const char* kFleetLabel = "agreement.dra.example.com/fleet";
// The node label a slice nodeSelector picks.
inline constexpr const char* kZoneLabel = "agreement.dra.example.com/zone";

// Generates a random fleet and request sequence; the same seed and shapes
// always give the same fleet.
class FleetGenerator {
 public:
  FleetGenerator(uint64_t seed, Shapes shapes, std::string prefix);

  Fleet Generate();

 private:
  int Uniform(int lo, int hi);  // inclusive
  bool Chance(int percent);
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(Uniform(0, static_cast<int>(items.size()) - 1))];
  }

  void AddNodes(Fleet& fleet);
  void AddPools(Fleet& fleet, const std::string& driver);
  void AddPool(Fleet& fleet, const std::string& driver, const std::string& pool,
               const FleetSlice& placement);
  void AddPartitionablePool(Fleet& fleet, const std::string& driver, const FleetNode& node);
  FleetDevice NewDevice(const std::string& driver, int index);
  void AddClasses(Fleet& fleet, const std::string& driver);
  void AddTaintRules(Fleet& fleet);
  void AddRequests(Fleet& fleet);
  FleetRequest NewExtendedRequest(const Fleet& fleet, const std::string& name);
  FleetRequest NewClaimRequest(const Fleet& fleet, const std::string& name);
  FleetDeviceRequest NewDeviceRequest(const Fleet& fleet, const std::string& driver,
                                      const std::string& name);
  std::vector<std::string> TaintKeys(const Fleet& fleet) const;

  uint64_t seed_;
  Shapes shapes_;
  std::string prefix_;
  std::mt19937_64 rng_;
};

// Models of the v1.37.2 matching rules the generated objects rely on.
std::vector<std::string> DriverModels(const std::string& driver);
bool Selects(const DeviceFilter& filter, const std::string& driver, const FleetDevice& device);
// The CEL expression of a filter.
std::string SelectorCel(const DeviceFilter& filter);
// Whether the device carries a NoSchedule/NoExecute taint (slice or rule)
// that `tolerations` do not tolerate.
bool Blocked(const Fleet& fleet, const FleetSlice& slice, const FleetDevice& device,
             const std::vector<FleetToleration>& tolerations = {});
const FleetClass* FindClass(const Fleet& fleet, const std::string& name);

// resource.k8s.io/v1 and core/v1 manifests of the generated objects.
nlohmann::json NodeManifest(const Fleet& fleet, const FleetNode& node);
nlohmann::json SliceManifest(const Fleet& fleet, const FleetSlice& slice);
nlohmann::json ClassManifest(const Fleet& fleet, const FleetClass& device_class);
nlohmann::json TaintRuleManifest(const Fleet& fleet, const FleetTaintRule& rule);
nlohmann::json ClaimManifest(const FleetRequest& request, const std::string& ns);
// The Pod; pinned to the fleet's nodes by their fleet label.
nlohmann::json PodManifest(const Fleet& fleet, const FleetRequest& request, const std::string& ns);

// A readable dump of the whole fleet and its requests, for failure messages.
std::string Describe(const Fleet& fleet);

}  // namespace dra::testing
