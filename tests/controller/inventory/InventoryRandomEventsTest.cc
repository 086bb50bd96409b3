// The incremental inventory must always equal one built from scratch out of
// the objects that exist at that moment, whatever order events come in.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "controller/inventory/Inventory.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::Inventory;

constexpr int kNodes = 6;
const std::vector<std::string> kClassNames{"any", "big", "model-a", "broken"};

std::shared_ptr<const api::DeviceClass> ClassVersion(const std::string& name, int version) {
  const std::vector<std::vector<std::string>> selectors{
      {R"(device.driver == "gpu.example.com")"},
      {R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0)"},
      {R"(device.attributes["gpu.example.com"].model == "model-a")"},
      {R"(device.attributes["gpu.example.com"].missing == 1)"},
  };
  size_t index = std::find(kClassNames.begin(), kClassNames.end(), name) - kClassNames.begin();
  return Class(name, selectors[(index + static_cast<size_t>(version)) % selectors.size()]);
}

class Scenario {
 public:
  explicit Scenario(uint32_t seed) : rng_(seed) {}

  // One random change, applied to `inventory` and remembered as world state.
  void Step(Inventory& inventory) {
    switch (Pick(6)) {
      case 0:
      case 1:
        PublishSlice(inventory);
        break;
      case 2:
        DeleteSlice(inventory);
        break;
      case 3:
        ChangeClaim(inventory);
        break;
      case 4:
        ChangeRule(inventory);
        break;
      default:
        ChangeClass(inventory);
        break;
    }
  }

  // An inventory fed only the objects that exist now.
  std::unique_ptr<Inventory> Rebuild() const {
    auto fresh = std::make_unique<Inventory>();
    for (const auto& [name, cls] : classes_) fresh->ApplyClass(cls);
    for (const auto& [name, slice] : slices_) fresh->ApplySlice(slice);
    for (const auto& [name, claim] : claims_) fresh->ApplyClaim(claim);
    for (const auto& [name, rule] : rules_) fresh->ApplyTaintRule(rule);
    return fresh;
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string Node() { return "node-" + std::to_string(Pick(kNodes)); }

  void PublishSlice(Inventory& inventory) {
    std::string node = Node();
    std::string name = node + "-part-" + std::to_string(Pick(2));
    std::vector<api::Device> devices;
    for (int i = 0, n = Pick(4); i < n; ++i) {
      devices.push_back(Gpu("gpu-" + std::to_string(Pick(5)), Pick(2) ? 80 : 24,
                            Pick(2) ? "model-a" : "model-b"));
    }
    auto slice = Slice(name, node, std::move(devices), 1 + Pick(3), 1 + Pick(2));
    slices_[name] = slice;
    inventory.ApplySlice(slice);
  }

  void DeleteSlice(Inventory& inventory) {
    if (slices_.empty()) return;
    auto it = std::next(slices_.begin(), Pick(static_cast<int>(slices_.size())));
    inventory.RemoveSlice(*it->second);
    slices_.erase(it);
  }

  void ChangeClaim(Inventory& inventory) {
    std::string name = "claim-" + std::to_string(Pick(4));
    if (Pick(4) == 0) {
      inventory.RemoveClaim(*Claim("ns", name, {}));
      claims_.erase(name);
      return;
    }
    std::vector<Held> held;
    for (int i = 0, n = Pick(3); i < n; ++i)
      held.push_back({Node(), "gpu-" + std::to_string(Pick(5))});
    auto claim = Claim("ns", name, held, {"pod-" + name});
    claims_[name] = claim;
    inventory.ApplyClaim(claim);
  }

  void ChangeRule(Inventory& inventory) {
    std::string name = "rule-" + std::to_string(Pick(3));
    if (Pick(3) == 0) {
      inventory.RemoveTaintRule(*TaintRule(name, "", "", api::TaintEffect::kNone));
      rules_.erase(name);
      return;
    }
    static const api::TaintEffect kEffects[] = {
        api::TaintEffect::kNone, api::TaintEffect::kNoSchedule, api::TaintEffect::kNoExecute};
    auto rule =
        TaintRule(name, Node(), Pick(2) ? "" : "gpu-" + std::to_string(Pick(5)), kEffects[Pick(3)]);
    rules_[name] = rule;
    inventory.ApplyTaintRule(rule);
  }

  void ChangeClass(Inventory& inventory) {
    const std::string& name = kClassNames[Pick(static_cast<int>(kClassNames.size()))];
    if (Pick(4) == 0) {
      inventory.RemoveClass(*Class(name, {}));
      classes_.erase(name);
      return;
    }
    auto cls = ClassVersion(name, Pick(4));
    classes_[name] = cls;
    inventory.ApplyClass(cls);
  }

  std::mt19937 rng_;
  std::map<std::string, std::shared_ptr<const api::ResourceSlice>> slices_;
  std::map<std::string, std::shared_ptr<const api::DeviceClass>> classes_;
  std::map<std::string, std::shared_ptr<const api::ResourceClaim>> claims_;
  std::map<std::string, std::shared_ptr<const api::DeviceTaintRule>> rules_;
};

void ExpectSameAnswers(const Inventory& incremental, const Inventory& fresh, int step) {
  std::vector<std::string> nodes{""};
  for (int n = 0; n < kNodes; ++n) nodes.push_back("node-" + std::to_string(n));
  for (const auto& cls : kClassNames) {
    ASSERT_EQ(incremental.HasClass(cls), fresh.HasClass(cls)) << cls << " at step " << step;
    ASSERT_EQ(incremental.CountPerNode(cls), fresh.CountPerNode(cls)) << cls << " at step " << step;
    for (const auto& node : nodes) {
      ASSERT_EQ(incremental.Count(cls, node), fresh.Count(cls, node))
          << "class " << cls << " node '" << node << "' at step " << step;
    }
  }
  auto a = incremental.Devices();
  auto b = fresh.Devices();
  ASSERT_EQ(a.size(), b.size()) << "at step " << step;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].key, b[i].key) << "at step " << step;
    ASSERT_EQ(a[i].slice_name, b[i].slice_name) << a[i].key.ToString() << " at step " << step;
    ASSERT_EQ(a[i].allocated_to.size(), b[i].allocated_to.size()) << a[i].key.ToString();
    ASSERT_EQ(a[i].taints.size(), b[i].taints.size()) << a[i].key.ToString();
    ASSERT_EQ(incremental.ClassesMatching(a[i].key), fresh.ClassesMatching(b[i].key));
    ASSERT_EQ(incremental.PodsUsing(a[i].key).size(), fresh.PodsUsing(b[i].key).size());
  }
}

TEST(InventoryRandomEventsTest, IncrementalUpdatesEqualARebuildFromScratch) {
  for (uint32_t seed : {1u, 7u, 42u, 2026u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Scenario scenario(seed);
    Inventory inventory;
    for (int step = 1; step <= 600; ++step) {
      scenario.Step(inventory);
      if (step % 25 == 0) {
        ExpectSameAnswers(inventory, *scenario.Rebuild(), step);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

}  // namespace
}  // namespace dra::testing
