#include <gtest/gtest.h>

#include <string>

#include "src/cache/KeyedSet.h"
#include "src/cache/ObjectMeta.h"

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

}  // namespace
}  // namespace kube
