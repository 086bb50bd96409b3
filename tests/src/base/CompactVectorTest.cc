#include <gtest/gtest.h>

#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "src/base/CompactVector.h"

namespace kube {
namespace {

int Sum(std::span<const int> values) { return std::accumulate(values.begin(), values.end(), 0); }

TEST(CompactVectorTest, IsOnePointerWideAndEmptyAllocatesNothing) {
  EXPECT_EQ(sizeof(CompactVector<std::string>), sizeof(void*));
  CompactVector<int> empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.capacity(), 0u);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.begin(), empty.end());
}

TEST(CompactVectorTest, GrowsKeepingEveryElementInOrder) {
  CompactVector<std::string> names;
  for (int i = 0; i < 100; ++i) names.push_back("name-" + std::to_string(i));
  ASSERT_EQ(names.size(), 100u);
  EXPECT_GE(names.capacity(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(names[i], "name-" + std::to_string(i));
  EXPECT_EQ(names.front(), "name-0");
  EXPECT_EQ(names.back(), "name-99");
}

TEST(CompactVectorTest, ReserveAvoidsRegrowth) {
  CompactVector<int> values;
  values.reserve(10);
  const int* first = values.data();
  for (int i = 0; i < 10; ++i) values.push_back(i);
  EXPECT_EQ(values.data(), first);
  EXPECT_EQ(values.capacity(), 10u);
}

TEST(CompactVectorTest, ShrinkToFitKeepsElementsAndDropsSpareCapacity) {
  CompactVector<std::string> names;
  names.reserve(8);
  names.push_back("a");
  names.push_back("b");
  names.shrink_to_fit();
  EXPECT_EQ(names.capacity(), 2u);
  EXPECT_EQ(names, (CompactVector<std::string>{"a", "b"}));

  CompactVector<int> empty;
  empty.reserve(4);
  empty.shrink_to_fit();
  EXPECT_EQ(empty.capacity(), 0u);
  EXPECT_EQ(empty.data(), nullptr);
}

TEST(CompactVectorTest, EmplaceBackMayCopyAnElementOfItself) {
  CompactVector<std::string> names{"a-long-string-that-is-not-small-buffer-optimised"};
  ASSERT_EQ(names.size(), names.capacity());
  names.emplace_back(names[0]);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[1], names[0]);
}

TEST(CompactVectorTest, CopiesAreIndependentAndMovesLeaveEmpty) {
  CompactVector<std::string> original{"a", "b"};
  CompactVector<std::string> copy = original;
  copy.push_back("c");
  EXPECT_EQ(original.size(), 2u);
  EXPECT_EQ(copy.size(), 3u);

  CompactVector<std::string> moved = std::move(copy);
  EXPECT_TRUE(copy.empty());  // NOLINT: checking the moved-from state on purpose
  EXPECT_EQ(moved.size(), 3u);

  moved = original;
  EXPECT_EQ(moved, original);
  moved = CompactVector<std::string>{};
  EXPECT_TRUE(moved.empty());
}

TEST(CompactVectorTest, ComparesByElements) {
  CompactVector<int> a{1, 2, 3};
  CompactVector<int> b(std::vector<int>{1, 2, 3});
  CompactVector<int> shorter{1, 2};
  CompactVector<int> different{1, 2, 4};
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a == shorter);
  EXPECT_FALSE(a == different);
  EXPECT_EQ(CompactVector<int>{}, CompactVector<int>{});
}

TEST(CompactVectorTest, ReadsAsASpan) {
  CompactVector<int> values{4, 5, 6};
  EXPECT_EQ(Sum(values), 15);
  EXPECT_EQ(Sum(CompactVector<int>{}), 0);
}

TEST(CompactVectorTest, PopBackAndClearDestroyElements) {
  CompactVector<std::string> names{"a", "b", "c"};
  names.pop_back();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names.back(), "b");
  names.clear();
  EXPECT_TRUE(names.empty());
  EXPECT_EQ(names.capacity(), 0u);
  names.push_back("again");
  EXPECT_EQ(names.front(), "again");
}

TEST(CompactVectorTest, SwapExchangesContents) {
  CompactVector<int> a{1};
  CompactVector<int> b{2, 3};
  a.swap(b);
  EXPECT_EQ(a, (CompactVector<int>{2, 3}));
  EXPECT_EQ(b, (CompactVector<int>{1}));
}

}  // namespace
}  // namespace kube
