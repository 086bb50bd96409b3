#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "controller/cel/Lexer.h"
#include "src/base/Result.h"

namespace dra::cel {

// The parser's position in the token stream of one expression (which ends
// with a kEnd token), and its syntax errors, positioned in the expression.
class TokenCursor {
 public:
  TokenCursor(std::string_view input, std::vector<Token> tokens)
      : input_(input), tokens_(std::move(tokens)) {}

  const Token& Peek() const { return tokens_[pos_]; }
  // The token after Peek() is the punctuation `p`.
  bool NextIsPunct(std::string_view p) const;
  // The offset of the token before Peek(); 0 at the start.
  size_t PreviousOffset() const { return pos_ == 0 ? 0 : tokens_[pos_ - 1].offset; }
  void Advance() { ++pos_; }

  bool IsPunct(std::string_view p) const;
  // Consumes the punctuation `p` if it comes next.
  bool Accept(std::string_view p);
  kube::Status Expect(std::string_view p);

  kube::Status ErrorAt(size_t offset, std::string_view what) const;
  kube::Status Unexpected() const;

 private:
  std::string_view input_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace dra::cel
