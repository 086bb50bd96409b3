#include <gtest/gtest.h>

#include <string>

#include "src/base/ChunkedVector.h"

namespace kube {
namespace {

TEST(ChunkedVectorTest, AppendsAcrossChunksAndKeepsEveryElement) {
  ChunkedVector<std::string, 4> items;
  EXPECT_TRUE(items.empty());
  for (int i = 0; i < 10; ++i) items.emplace_back() = "item-" + std::to_string(i);
  ASSERT_EQ(items.size(), 10u);
  for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(items[i], "item-" + std::to_string(i));
}

TEST(ChunkedVectorTest, NewElementsAreValueInitialized) {
  ChunkedVector<int, 2> items;
  items.emplace_back() = 7;
  EXPECT_EQ(items.emplace_back(), 0);
  EXPECT_EQ(items.emplace_back(), 0) << "the first element of a new chunk";
}

TEST(ChunkedVectorTest, ElementsNeverMove) {
  ChunkedVector<int, 4> items;
  int* first = &items.emplace_back();
  for (int i = 0; i < 100; ++i) items.emplace_back() = i;
  EXPECT_EQ(first, &items[0]);
}

}  // namespace
}  // namespace kube
