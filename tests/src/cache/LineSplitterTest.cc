#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/cache/LineSplitter.h"

namespace kube {
namespace {

TEST(LineSplitterTest, ReassemblesLinesAcrossChunks) {
  LineSplitter splitter;
  std::vector<std::string> lines;
  auto collect = [&](std::string_view line) {
    lines.emplace_back(line);
    return true;
  };
  EXPECT_TRUE(splitter.Feed("ab", collect));
  EXPECT_TRUE(splitter.Feed("c\nde\n\nf", collect));
  EXPECT_EQ(lines, (std::vector<std::string>{"abc", "de"}));
  EXPECT_EQ(splitter.pending_bytes(), 1u);
}

TEST(LineSplitterTest, DropsAnOverlongLineWithoutHoldingItAndGoesOn) {
  EXPECT_EQ(LineSplitter::kDefaultMaxLine, 8u * 1024 * 1024);
  LineSplitter splitter(1024 * 1024);
  std::vector<std::string> lines;
  auto collect = [&](std::string_view line) {
    lines.emplace_back(line);
    return true;
  };
  std::string chunk(64 * 1024, 'x');
  for (int i = 0; i < 320; ++i) {  // a 20 MiB line
    ASSERT_TRUE(splitter.Feed(chunk, collect));
    ASSERT_LE(splitter.buffer_capacity(), 2u * 1024 * 1024) << "after chunk " << i;
  }
  EXPECT_TRUE(splitter.Feed("tail\nnext\n" + std::string(2 << 20, 'y') + "\nlast\n", collect));
  EXPECT_EQ(lines, (std::vector<std::string>{"next", "last"}));
  EXPECT_EQ(splitter.oversized_lines(), 2u);
}

TEST(LineSplitterTest, StopsWhenTheConsumerSaysSo) {
  LineSplitter splitter;
  int calls = 0;
  EXPECT_FALSE(splitter.Feed("a\nb\n", [&](std::string_view) { return ++calls > 1; }));
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace kube
