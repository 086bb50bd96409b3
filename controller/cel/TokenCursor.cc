#include "controller/cel/TokenCursor.h"

#include <string>

namespace dra::cel {

using kube::Status;

bool TokenCursor::NextIsPunct(std::string_view p) const {
  if (pos_ + 1 >= tokens_.size()) return false;
  const Token& next = tokens_[pos_ + 1];
  return next.kind == Token::Kind::kPunct && next.text == p;
}

bool TokenCursor::IsPunct(std::string_view p) const {
  return Peek().kind == Token::Kind::kPunct && Peek().text == p;
}

bool TokenCursor::Accept(std::string_view p) {
  if (!IsPunct(p)) return false;
  ++pos_;
  return true;
}

Status TokenCursor::Expect(std::string_view p) {
  if (Accept(p)) return Status::Ok();
  return ErrorAt(Peek().offset, "expected '" + std::string(p) + "'");
}

Status TokenCursor::ErrorAt(size_t offset, std::string_view what) const {
  return Lexer::SyntaxError(input_, offset, what);
}

Status TokenCursor::Unexpected() const {
  const Token& t = Peek();
  if (t.kind == Token::Kind::kEnd) return ErrorAt(t.offset, "unexpected end of expression");
  std::string text = t.kind == Token::Kind::kPunct || t.kind == Token::Kind::kIdent
                         ? t.text
                         : std::string(input_.substr(t.offset, 1));
  return ErrorAt(t.offset, "unexpected '" + text + "'");
}

}  // namespace dra::cel
