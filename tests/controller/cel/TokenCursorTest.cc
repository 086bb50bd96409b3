#include <gtest/gtest.h>

#include <string_view>

#include "controller/cel/TokenCursor.h"

namespace dra::cel {
namespace {

TokenCursor CursorOver(std::string_view expression) {
  auto tokens = Lexer(expression).Tokenize();
  EXPECT_TRUE(tokens.ok()) << tokens.status().message();
  return TokenCursor(expression, std::move(*tokens));
}

TEST(TokenCursorTest, AcceptConsumesOnlyTheNamedPunctuation) {
  TokenCursor cursor = CursorOver("(a.b)");
  EXPECT_FALSE(cursor.Accept("["));
  EXPECT_TRUE(cursor.Accept("("));
  EXPECT_EQ(cursor.Peek().text, "a");
  EXPECT_TRUE(cursor.NextIsPunct("."));
  EXPECT_FALSE(cursor.NextIsPunct(")"));
  cursor.Advance();
  EXPECT_EQ(cursor.PreviousOffset(), 1u);
  EXPECT_TRUE(cursor.Expect(".").ok());
}

TEST(TokenCursorTest, NextIsPunctIsFalseAtTheEnd) {
  TokenCursor cursor = CursorOver("x");
  EXPECT_EQ(cursor.PreviousOffset(), 0u);
  EXPECT_FALSE(cursor.NextIsPunct("."));
  cursor.Advance();
  EXPECT_EQ(cursor.Peek().kind, Token::Kind::kEnd);
  EXPECT_FALSE(cursor.NextIsPunct("."));
}

TEST(TokenCursorTest, ErrorsNameThePositionAndTheToken) {
  TokenCursor cursor = CursorOver("a ]");
  cursor.Advance();
  auto expected = cursor.Expect(")");
  EXPECT_NE(expected.message().find("syntax error at 1:3: expected ')'"), std::string::npos)
      << expected.message();
  EXPECT_NE(cursor.Unexpected().message().find("unexpected ']'"), std::string::npos);
  cursor.Advance();
  EXPECT_NE(cursor.Unexpected().message().find("unexpected end of expression"), std::string::npos);
}

}  // namespace
}  // namespace dra::cel
