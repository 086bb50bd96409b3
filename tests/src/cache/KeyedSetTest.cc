#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "src/cache/KeyedSet.h"
#include "src/cache/ObjectMeta.h"
#include "tests/support/ScopedEnv.h"
#include "tests/support/Subprocess.h"

namespace kube {
namespace {

struct Named {
  ObjectMeta meta;
  int version = 0;
};

std::shared_ptr<const Named> Make(const std::string& ns, const std::string& name, int version) {
  auto object = std::make_shared<Named>();
  object->meta.namespace_name = ns;
  object->meta.name = name;
  object->version = version;
  return object;
}

TEST(KeyedSetTest, KeysAnObjectByItsNamespaceAndName) {
  KeyedSet<Named> set;
  EXPECT_EQ(set.Put(Make("team", "a", 1)), nullptr);
  EXPECT_EQ(set.Put(Make("other", "a", 1)), nullptr);
  ASSERT_NE(set.Find("team/a"), nullptr);
  EXPECT_EQ((*set.Find("team/a"))->meta.namespace_name, "team");
  EXPECT_EQ(set.Find("a"), nullptr);  // the cluster-scoped key is another object
  EXPECT_EQ(set.Find("team/b"), nullptr);
  EXPECT_EQ(set.size(), 2u);
}

TEST(KeyedSetTest, PutReplacesAndReturnsTheObjectWithTheSameKey) {
  KeyedSet<Named> set;
  set.Put(Make("team", "a", 1));
  auto old = set.Put(Make("team", "a", 2));
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->version, 1);
  EXPECT_EQ((*set.Find("team/a"))->version, 2);
  EXPECT_EQ(set.size(), 1u);
}

TEST(KeyedSetTest, ClusterScopedObjectsAreKeyedByName) {
  KeyedSet<Named> set;
  set.Put(Make("", "node-1", 1));
  ASSERT_NE(set.Find("node-1"), nullptr);
  EXPECT_NE(set.Find(*Make("", "node-1", 9)), nullptr);
  EXPECT_EQ(set.Find("/node-1"), set.Find("node-1"));  // an empty namespace reads the same
  auto erased = set.Erase("node-1");
  ASSERT_NE(erased, nullptr);
  EXPECT_EQ(erased->meta.name, "node-1");
  EXPECT_EQ(set.Erase("node-1"), nullptr);
  EXPECT_EQ(set.size(), 0u);
}

TEST(KeyedSetTest, ANullObjectIsNotStored) {
  KeyedSet<Named> set;
  EXPECT_EQ(set.Put(nullptr), nullptr);
  EXPECT_EQ(set.size(), 0u);
}

TEST(KeyedSetTest, IteratesEveryObjectOnce) {
  KeyedSet<Named> set;
  for (int i = 0; i < 100; ++i) set.Put(Make("ns-" + std::to_string(i % 3), std::to_string(i), i));
  for (int i = 0; i < 100; i += 2)
    set.Put(Make("ns-" + std::to_string(i % 3), std::to_string(i), -i));
  int sum = 0;
  size_t count = 0;
  for (const auto& object : set) {
    sum += object->version;
    ++count;
  }
  EXPECT_EQ(count, 100u);
  EXPECT_EQ(sum, (1 + 99) * 50 / 2 - (0 + 98) * 50 / 2);  // odd ones kept, even ones negated
}

// Random puts and erases against a std::map: the open addressing's growth and
// backward-shift deletion must never lose, duplicate or misplace an object.
TEST(KeyedSetTest, AgreesWithAMapOverRandomPutsAndErases) {
  KeyedSet<Named> set;
  std::map<std::string, int> model;
  std::mt19937 random(7);
  for (int step = 0; step < 20000; ++step) {
    std::string ns = "ns-" + std::to_string(random() % 4);
    std::string name = std::to_string(random() % 500);
    std::string key = ns + "/" + name;
    if (random() % 3 == 0) {
      auto erased = set.Erase(key);
      EXPECT_EQ(erased != nullptr, model.erase(key) == 1) << key;
    } else {
      auto old = set.Put(Make(ns, name, step));
      EXPECT_EQ(old != nullptr, model.count(key) == 1) << key;
      model[key] = step;
    }
    ASSERT_EQ(set.size(), model.size());
  }
  for (const auto& [key, version] : model) {
    ASSERT_NE(set.Find(key), nullptr) << key;
    EXPECT_EQ((*set.Find(key))->version, version);
  }
  size_t iterated = 0;
  for (const auto& object : set) {
    EXPECT_EQ(model.at(object->meta.Key()), object->version);
    ++iterated;
  }
  EXPECT_EQ(iterated, model.size());
}

// A handler that adds every object of a synced store to its own set adds
// them in the store's slot order. Were that the same as the new set's hash
// order, the entries would pile up in one run at the front of its smaller,
// growing array; each set's seed keeps probes short.
TEST(KeyedSetTest, FillingOneSetInAnothersOrderKeepsProbesShort) {
  KeyedSet<Named> store;
  for (int i = 0; i < 30000; ++i) store.Put(Make("bench", "claim-" + std::to_string(i), i));
  KeyedSet<Named> copy;
  size_t longest = 0;
  for (const auto& object : store) {
    copy.Put(object);
    if (copy.size() % 1000 == 0) longest = std::max(longest, copy.LongestProbe());
  }
  EXPECT_EQ(copy.size(), 30000u);
  EXPECT_LT(store.LongestProbe(), 1000u);
  // Without the seeds the longest run reached 5,491 slots while filling.
  EXPECT_LT(longest, 1000u);
}

TEST(KeyedSetTest, FindsAndErasesByNamespaceAndName) {
  KeyedSet<Named> set;
  set.Put(Make("team", "a", 1));
  ASSERT_NE(set.Find("team", "a"), nullptr);
  EXPECT_EQ(set.Find("other", "a"), nullptr);
  EXPECT_EQ(set.Erase("other", "a"), nullptr);
  EXPECT_NE(set.Erase("team", "a"), nullptr);
  EXPECT_TRUE(set.empty());
}

TEST(KeyedSetTest, ClearReleasesTheObjects) {
  KeyedSet<Named> set;
  auto object = Make("team", "a", 1);
  set.Put(object);
  EXPECT_EQ(object.use_count(), 2);
  set.clear();
  EXPECT_EQ(object.use_count(), 1);
  EXPECT_EQ(set.begin(), set.end());
  EXPECT_EQ(set.Find("team/a"), nullptr);
  set.Put(object);  // usable again after clear
  EXPECT_EQ(set.size(), 1u);
}

TEST(KeyedSetTest, SwapAndMoveCarryTheObjects) {
  KeyedSet<Named> a;
  KeyedSet<Named> b;
  a.Put(Make("team", "a", 1));
  a.swap(b);
  EXPECT_TRUE(a.empty());
  ASSERT_NE(b.Find("team/a"), nullptr);
  KeyedSet<Named> c(std::move(b));
  EXPECT_NE(c.Find("team/a"), nullptr);
  EXPECT_EQ(c.size(), 1u);
}

}  // namespace
}  // namespace kube

namespace kube {
namespace {

constexpr const char* kPrintOrder = "KEYED_SET_TEST_PRINT_ORDER";

// Helper of the test below, in a process of its own: prints the order of a
// fresh set. Skipped when run on its own.
TEST(KeyedSetTest, PrintsTheOrderOfAFreshSetForTheTestBelow) {
  if (std::getenv(kPrintOrder) == nullptr) GTEST_SKIP() << "run by SeedsDifferInEveryProcess";
  KeyedSet<Named> set;
  for (int i = 0; i < 64; ++i) set.Put(Make("team", "pod-" + std::to_string(i), i));
  std::string order;
  for (const auto& object : set) order += object->meta.name + ",";
  std::cout << "ORDER:" << order << "\n";
}

std::string OrderInAFreshProcess() {
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  dra::testing::ScopedEnv print(kPrintOrder, "1");
  auto run = dra::testing::Subprocess::Run(
      {self, "--gtest_filter=KeyedSetTest.PrintsTheOrderOfAFreshSetForTheTestBelow"}, "",
      std::chrono::seconds(60));
  if (!run.ok()) return "failed: " + run.status().ToString();
  size_t at = run->out.find("ORDER:");
  if (at == std::string::npos) return "no order in: " + run->out;
  return run->out.substr(at, run->out.find('\n', at) - at);
}

// Where a name lands must not be computable outside the process: tenants
// who name Pods or claims could otherwise pick names that pile into one
// probe run in every controller. Two processes place the same names apart.
TEST(KeyedSetTest, SeedsDifferInEveryProcess) {
  std::string first = OrderInAFreshProcess();
  std::string second = OrderInAFreshProcess();
  ASSERT_EQ(first.rfind("ORDER:", 0), 0u) << first;
  ASSERT_EQ(second.rfind("ORDER:", 0), 0u) << second;
  EXPECT_NE(first, second) << "the same order in two processes: the seed is predictable";
}

}  // namespace
}  // namespace kube
