#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "controller/cel/Value.h"
#include "src/base/Result.h"

namespace dra::cel {

struct Token {
  enum class Kind { kEnd, kIdent, kInt, kUint, kDouble, kString, kPunct };
  Kind kind = Kind::kEnd;
  std::string text;            // identifier, punctuation, or decoded string literal
  uint64_t int_magnitude = 0;  // kInt (may be 2^63, valid only after unary minus)
  uint64_t uint_value = 0;
  double double_value = 0;
  size_t offset = 0;  // byte offset into the expression
};

// Splits a CEL expression into tokens; string escapes are decoded here.
class Lexer {
 public:
  explicit Lexer(std::string_view input) : input_(input) {}
  kube::Result<std::vector<Token>> Tokenize();

  // "line:column" (1-based) of a byte offset in `input`.
  static std::string Position(std::string_view input, size_t offset);
  static kube::Status SyntaxError(std::string_view input, size_t offset, std::string_view what);

 private:
  kube::Status Next(Token& token);
  kube::Status Number(Token& token);
  kube::Status String(Token& token, bool raw);
  kube::Status Escape(std::string& out);
  kube::Status Error(std::string_view what) const { return SyntaxError(input_, pos_, what); }
  bool At(std::string_view s) const { return input_.substr(pos_, s.size()) == s; }
  void SkipSpaceAndComments();

  std::string_view input_;
  size_t pos_ = 0;
};

}  // namespace dra::cel
