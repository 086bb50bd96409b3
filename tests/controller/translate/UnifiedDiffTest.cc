#include <gtest/gtest.h>

#include "controller/translate/UnifiedDiff.h"

namespace dra::translate {
namespace {

TEST(UnifiedDiffTest, EqualTextsHaveNoDiff) {
  EXPECT_EQ(UnifiedDiff::Make("a\nb\n", "a\nb\n", "a/x", "b/x"), "");
}

TEST(UnifiedDiffTest, ChangeWithContext) {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(UnifiedDiff::Make(before, after, "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiffTest, InsertionAtTheStartAndFarApartChangesMakeTwoHunks) {
  std::string before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
  std::string after = "new\na\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n";
  EXPECT_EQ(
      UnifiedDiff::Make(before, after, "a/f", "b/f"),
      "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n+new\n a\n b\n c\n@@ -7,4 +8,4 @@\n g\n h\n i\n-j\n+J\n");
}

TEST(UnifiedDiffTest, MissingFinalNewlineIsMarked) {
  EXPECT_EQ(UnifiedDiff::Make("a", "b", "x", "y"),
            "--- x\n+++ y\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No "
            "newline at end of file\n");
}

}  // namespace
}  // namespace dra::translate
