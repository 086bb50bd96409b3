#include <gtest/gtest.h>

#include "controller/docs/MarkdownTable.h"

namespace dra::docs {
namespace {

TEST(MarkdownTableTest, KeepsEachCellOnOneLineWithItsPipesEscaped) {
  MarkdownTable table({"A", "B"});
  table.AddRow({"one\n  two", "x|y"});
  table.AddRow({"short"});
  EXPECT_EQ(table.Render(), "| A | B |\n|---|---|\n| one two | x\\|y |\n| short |  |\n");
}

TEST(MarkdownTableTest, EscapesAngleBracketsOutsideCodeSpansOnly) {
  EXPECT_EQ(MarkdownTable::Inline("named devicehealth-<name>, `a<b`"),
            "named devicehealth-\\<name\\>, `a<b`");
}

TEST(MarkdownTableTest, CodeSpansFenceABacktickAndLeaveEmptyTextEmpty) {
  EXPECT_EQ(MarkdownTable::Code("--flag"), "`--flag`");
  EXPECT_EQ(MarkdownTable::Code("a`b"), "`` a`b ``");
  EXPECT_EQ(MarkdownTable::Code(""), "");
}

}  // namespace
}  // namespace dra::docs
