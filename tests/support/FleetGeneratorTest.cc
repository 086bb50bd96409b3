#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "tests/support/FleetGenerator.h"

namespace dra::testing {
namespace {

using nlohmann::json;

Fleet Make(uint64_t seed, Shapes shapes = Shapes::Default()) {
  return FleetGenerator(seed, shapes, "agr" + std::to_string(seed)).Generate();
}

std::string AllManifests(const Fleet& fleet) {
  std::string out;
  for (const auto& n : fleet.nodes) out += NodeManifest(fleet, n).dump();
  for (const auto& s : fleet.slices) out += SliceManifest(fleet, s).dump();
  for (const auto& c : fleet.classes) out += ClassManifest(fleet, c).dump();
  for (const auto& r : fleet.rules) out += TaintRuleManifest(fleet, r).dump();
  for (const auto& r : fleet.requests) {
    out += PodManifest(fleet, r, "ns").dump();
    if (!r.IsExtended()) out += ClaimManifest(r, "ns").dump();
  }
  return out;
}

TEST(FleetGeneratorTest, SameSeedGivesTheSameFleet) {
  for (uint64_t seed : {1ULL, 42ULL, 18446744073709551557ULL}) {
    Fleet a = Make(seed, Shapes::All());
    Fleet b = Make(seed, Shapes::All());
    EXPECT_EQ(Describe(a), Describe(b)) << "seed " << seed;
    EXPECT_EQ(AllManifests(a), AllManifests(b)) << "seed " << seed;
  }
}

TEST(FleetGeneratorTest, DifferentSeedsGiveDifferentFleets) {
  std::set<std::string> shapes;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    // Same prefix, so only the random choices can differ.
    shapes.insert(Describe(FleetGenerator(seed, Shapes::Default(), "agr").Generate()));
  }
  EXPECT_EQ(shapes.size(), 20u);
}

// What the API server's validation and the test's judging rely on.
void ExpectValid(const Fleet& fleet) {
  SCOPED_TRACE("seed " + std::to_string(fleet.seed));
  const std::regex dns(R"([a-z0-9]([-a-z0-9.]*[a-z0-9])?)");
  std::set<std::string> names;
  auto unique = [&](const std::string& kind, const std::string& name) {
    EXPECT_TRUE(std::regex_match(name, dns)) << name;
    EXPECT_TRUE(names.insert(kind + "/" + name).second) << "duplicate " << kind << " " << name;
  };
  ASSERT_GE(fleet.nodes.size(), 2u);
  for (const auto& n : fleet.nodes) unique("node", n.name);
  std::map<std::string, std::set<std::string>> devices_of_pool;
  std::map<std::string, int64_t> newest;
  for (const auto& s : fleet.slices) {
    unique("slice", s.name);
    std::string pool = s.driver + "/" + s.pool;
    newest[pool] = std::max(newest[pool], s.generation);
    int placements = (s.node.empty() ? 0 : 1) + (s.all_nodes ? 1 : 0) + (s.zone.empty() ? 0 : 1);
    EXPECT_EQ(placements, 1) << s.name;
    EXPECT_TRUE(s.shared_counters.empty() || s.devices.empty()) << s.name;
    json manifest = SliceManifest(fleet, s);
    EXPECT_NE(manifest["spec"].contains("devices"), manifest["spec"].contains("sharedCounters"));
    if (s.stale) continue;
    for (const auto& d : s.devices) {
      EXPECT_TRUE(devices_of_pool[pool].insert(d.name).second) << "duplicate device " << d.name;
    }
  }
  std::map<std::string, int> current_slices;
  for (const auto& s : fleet.slices) {
    std::string pool = s.driver + "/" + s.pool;
    EXPECT_EQ(s.stale, s.generation < newest[pool]) << s.name;
    if (!s.stale) ++current_slices[pool];
  }
  for (const auto& s : fleet.slices) {
    if (s.stale) continue;
    int have = current_slices[s.driver + "/" + s.pool];
    EXPECT_EQ(s.incomplete, have < s.slice_count) << s.name;
    EXPECT_LE(have, s.slice_count) << s.name;
  }
  for (const auto& c : fleet.classes) {
    unique("class", c.name);
    if (!c.extended_resource.empty()) {
      auto name = c.extended_resource.substr(c.extended_resource.find('/') + 1);
      EXPECT_LE(name.size(), 63u) << c.extended_resource;
    }
  }
  for (const auto& r : fleet.rules) unique("rule", r.name);
  ASSERT_FALSE(fleet.requests.empty());
  for (const auto& r : fleet.requests) {
    unique("pod", r.name);
    if (r.IsExtended()) {
      const FleetClass* c = FindClass(fleet, r.extended_class);
      ASSERT_NE(c, nullptr);
      EXPECT_EQ(c->extended_resource, r.extended_resource);
      continue;
    }
    std::set<std::string> drivers;
    for (const auto& cr : r.claim) {
      EXPECT_NE(cr.exactly.has_value(), !cr.first_available.empty());
      std::vector<FleetDeviceRequest> alternatives = cr.first_available;
      if (cr.exactly) alternatives.push_back(*cr.exactly);
      std::set<std::string> request_drivers;
      for (const auto& dr : alternatives) {
        const FleetClass* c = FindClass(fleet, dr.class_name);
        ASSERT_NE(c, nullptr) << dr.class_name;
        request_drivers.insert(c->filter.driver);
        EXPECT_TRUE(dr.selector.Empty() || dr.selector.driver == c->filter.driver);
        EXPECT_TRUE(dr.all || dr.count >= 1);
      }
      EXPECT_EQ(request_drivers.size(), 1u);
      EXPECT_TRUE(drivers.insert(*request_drivers.begin()).second)
          << "two requests of one claim share a driver";
    }
  }
}

TEST(FleetGeneratorTest, FleetsAreValidForEveryShapeSet) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    ExpectValid(Make(seed));
    ExpectValid(Make(seed, Shapes::All()));
    if (HasFailure()) return;
  }
}

struct Seen {
  int stale = 0, incomplete = 0, all_nodes = 0, zone = 0, counters = 0, shared = 0, taints = 0;
  int rules = 0, all_mode = 0, first_available = 0, tolerations = 0, selectors = 0;
  int admin = 0, capacity = 0, extended = 0, claims = 0;
};

Seen Count(Shapes shapes) {
  Seen seen;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Fleet fleet = Make(seed, shapes);
    for (const auto& s : fleet.slices) {
      seen.stale += s.stale;
      seen.incomplete += s.incomplete;
      seen.all_nodes += s.all_nodes;
      seen.zone += !s.zone.empty();
      seen.counters += !s.shared_counters.empty();
      for (const auto& d : s.devices) {
        seen.shared += d.allow_multiple;
        seen.taints += !d.taints.empty();
      }
    }
    seen.rules += static_cast<int>(fleet.rules.size());
    for (const auto& r : fleet.requests) {
      seen.extended += r.IsExtended();
      seen.claims += !r.IsExtended();
      for (const auto& cr : r.claim) {
        seen.first_available += !cr.first_available.empty();
        std::vector<FleetDeviceRequest> all = cr.first_available;
        if (cr.exactly) all.push_back(*cr.exactly);
        for (const auto& dr : all) {
          seen.all_mode += dr.all;
          seen.tolerations += !dr.tolerations.empty();
          seen.selectors += !dr.selector.Empty();
          seen.admin += dr.admin_access;
          seen.capacity += dr.capacity_memory_gi > 0;
        }
      }
    }
  }
  return seen;
}

TEST(FleetGeneratorTest, DefaultShapesProduceEveryShape) {
  Seen seen = Count(Shapes::Default());
  for (int n :
       {seen.incomplete, seen.counters, seen.admin, seen.zone, seen.shared, seen.capacity,
        seen.stale, seen.all_nodes, seen.taints, seen.rules, seen.all_mode, seen.first_available,
        seen.tolerations, seen.selectors, seen.extended, seen.claims}) {
    EXPECT_GT(n, 0);
  }
}

TEST(FleetGeneratorTest, SwitchedOffShapesAreNotGenerated) {
  Shapes shapes = Shapes::Default();
  shapes.extended_resource_pods = false;
  shapes.taint_rules = false;
  shapes.slice_taints = false;
  shapes.all_nodes_slices = false;
  Seen seen = Count(shapes);
  EXPECT_EQ(seen.extended, 0);
  EXPECT_EQ(seen.rules, 0);
  EXPECT_EQ(seen.taints, 0);
  EXPECT_EQ(seen.tolerations, 0);
  EXPECT_EQ(seen.all_nodes, 0);
  EXPECT_GT(seen.claims, 0);
}

TEST(FleetGeneratorTest, ShapesParseFromText) {
  EXPECT_EQ(Shapes::Parse("default")->Off(), Shapes::Default().Off());
  EXPECT_TRUE(Shapes::Parse("all")->Off().empty());
  EXPECT_TRUE(Shapes::Default().Off().empty());
  auto some = Shapes::Parse("+admin_access,-node_selectors,-taint_rules");
  ASSERT_TRUE(some.has_value());
  EXPECT_TRUE(some->admin_access);
  EXPECT_FALSE(some->node_selectors);
  EXPECT_FALSE(some->taint_rules);
  EXPECT_TRUE(some->shared_devices);
  EXPECT_EQ(some->Off(), (std::vector<std::string>{"taint_rules", "node_selectors"}));
  EXPECT_FALSE(Shapes::Parse("admin_acess").has_value());
}

TEST(FleetGeneratorTest, PartitionableGpuIsACounterSliceAndADeviceSlice) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Fleet fleet = Make(seed, Shapes::All());
    for (const auto& s : fleet.slices) {
      if (s.shared_counters.empty()) continue;
      json counters = SliceManifest(fleet, s);
      EXPECT_EQ(counters["spec"]["pool"]["resourceSliceCount"], 2);
      EXPECT_EQ(counters["spec"]["sharedCounters"][0]["counters"]["memory"]["value"], "80Gi");
      EXPECT_FALSE(counters["spec"].contains("devices"));
      return;
    }
  }
  FAIL() << "no partitionable pool in 50 seeds";
}

TEST(FleetGeneratorTest, SelectsMatchesTheCelItRenders) {
  FleetDevice small{"d", "gpu-small", 24, 0, {}, {}, false};
  FleetDevice large{"d", "gpu-large", 80, 0, {}, {}, false};
  const std::string driver = "gpu.agreement.example.com";
  DeviceFilter by_model{driver, "gpu-large", 0};
  DeviceFilter by_memory{driver, "", 40};
  EXPECT_FALSE(Selects(by_model, driver, small));
  EXPECT_TRUE(Selects(by_model, driver, large));
  EXPECT_FALSE(Selects(by_memory, driver, small));
  EXPECT_TRUE(Selects(by_memory, driver, large));
  EXPECT_FALSE(Selects(by_memory, "nic.agreement.example.com", large));
  EXPECT_EQ(SelectorCel(by_memory),
            "device.driver == \"gpu.agreement.example.com\" && "
            "device.capacity[\"gpu.agreement.example.com\"].memory.compareTo(quantity(\"40Gi\")) "
            ">= 0");
}

TEST(FleetGeneratorTest, BlockedAppliesSliceAndRuleTaintsAndTolerations) {
  Fleet fleet;
  FleetSlice slice;
  slice.driver = "gpu.agreement.example.com";
  slice.pool = "p";
  FleetDevice device{"dev-0", "m", 24, 0, {}, {}, false};
  EXPECT_FALSE(Blocked(fleet, slice, device));
  device.taints.push_back({"k", "bad", "None"});
  EXPECT_FALSE(Blocked(fleet, slice, device)) << "None never blocks";
  fleet.rules.push_back({"r", slice.driver, "p", "dev-0", {"rule", "", "NoExecute"}});
  EXPECT_TRUE(Blocked(fleet, slice, device));
  EXPECT_FALSE(Blocked(fleet, slice, device, {{"rule", "Exists", "", ""}}));
  EXPECT_TRUE(Blocked(fleet, slice, device, {{"rule", "Exists", "", "NoSchedule"}}));
  EXPECT_FALSE(Blocked(fleet, slice, device, {{"rule", "Equal", "", "NoExecute"}}));
  EXPECT_TRUE(Blocked(fleet, slice, device, {{"rule", "Equal", "x", ""}}));
  FleetDevice other{"dev-1", "m", 24, 1, {}, {}, false};
  EXPECT_FALSE(Blocked(fleet, slice, other)) << "the rule names dev-0";
}

}  // namespace
}  // namespace dra::testing
