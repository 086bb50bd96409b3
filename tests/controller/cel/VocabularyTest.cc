#include <gtest/gtest.h>

#include "controller/cel/Vocabulary.h"

namespace dra::cel {
namespace {

TEST(VocabularyTest, BuiltInsExtensionsAndMacrosAreDistinct) {
  EXPECT_EQ(Vocabulary::FunctionNamed("matches"), Function::kMatches);
  EXPECT_EQ(Vocabulary::FunctionNamed("add"), Function::kQuantityAdd);
  EXPECT_FALSE(Vocabulary::FunctionNamed("charAt"));
  EXPECT_TRUE(Vocabulary::IsExtension("charAt"));
  EXPECT_TRUE(Vocabulary::IsExtension("lists.range"));
  EXPECT_FALSE(Vocabulary::IsExtension("size"));
  EXPECT_EQ(Vocabulary::MacroNamed("exists_one"), Macro::kExistsOne);
  EXPECT_EQ(Vocabulary::MacroNamed("existsOne"), Macro::kExistsOne);
  EXPECT_FALSE(Vocabulary::MacroNamed("size"));
}

TEST(VocabularyTest, TypeNamesNamespacesAndReservedWords) {
  EXPECT_TRUE(Vocabulary::IsTypeName("null_type"));
  EXPECT_FALSE(Vocabulary::IsTypeName("device"));
  EXPECT_TRUE(Vocabulary::IsNamespace("sets"));
  EXPECT_FALSE(Vocabulary::IsNamespace("device"));
  EXPECT_TRUE(Vocabulary::IsReserved("in"));
  EXPECT_TRUE(Vocabulary::IsReserved("while"));
  EXPECT_FALSE(Vocabulary::IsReserved("device"));
}

}  // namespace
}  // namespace dra::cel
