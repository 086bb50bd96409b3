#include "controller/cel/Lexer.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "src/base/Utf8Text.h"

namespace dra::cel {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c)); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

constexpr std::string_view kPuncts[] = {"==", "!=", "<=", ">=", "&&", "||", "<", ">",
                                        "+",  "-",  "*",  "/",  "%",  "!",  "?", ":",
                                        ".",  ",",  "(",  ")",  "[",  "]",  "{", "}"};

}  // namespace

std::string Lexer::Position(std::string_view input, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < input.size(); ++i) {
    if (input[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

kube::Status Lexer::SyntaxError(std::string_view input, size_t offset, std::string_view what) {
  std::string shown = kube::Utf8Text::Truncate(input, 203, "...");
  return kube::Status(kube::StatusCode::kParseError, "syntax error at " + Position(input, offset) +
                                                         ": " + std::string(what) + " in \"" +
                                                         shown + "\"");
}

kube::Result<std::vector<Token>> Lexer::Tokenize() {
  std::vector<Token> tokens;
  while (true) {
    Token token;
    if (auto status = Next(token); !status.ok()) return status;
    bool end = token.kind == Token::Kind::kEnd;
    tokens.push_back(std::move(token));
    if (end) return tokens;
  }
}

void Lexer::SkipSpaceAndComments() {
  while (pos_ < input_.size()) {
    char c = input_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      ++pos_;
    } else if (At("//")) {
      while (pos_ < input_.size() && input_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

kube::Status Lexer::Next(Token& token) {
  SkipSpaceAndComments();
  token.offset = pos_;
  if (pos_ >= input_.size()) return kube::Status::Ok();
  char c = input_[pos_];
  if (IsDigit(c)) return Number(token);
  if ((c == 'r' || c == 'R') && pos_ + 1 < input_.size() &&
      (input_[pos_ + 1] == '"' || input_[pos_ + 1] == '\'')) {
    ++pos_;
    return String(token, true);
  }
  if ((c == 'b' || c == 'B') && pos_ + 1 < input_.size() &&
      (input_[pos_ + 1] == '"' || input_[pos_ + 1] == '\'' || input_[pos_ + 1] == 'r'))
    return Error("bytes literals are not supported");
  if (c == '"' || c == '\'') return String(token, false);
  if (IsIdentStart(c)) {
    size_t start = pos_;
    while (pos_ < input_.size() && IsIdentChar(input_[pos_])) ++pos_;
    token.kind = Token::Kind::kIdent;
    token.text = std::string(input_.substr(start, pos_ - start));
    return kube::Status::Ok();
  }
  for (std::string_view p : kPuncts) {
    if (At(p)) {
      token.kind = Token::Kind::kPunct;
      token.text = std::string(p);
      pos_ += p.size();
      return kube::Status::Ok();
    }
  }
  return Error(std::string("unexpected character '") + c + "'");
}

kube::Status Lexer::Number(Token& token) {
  size_t start = pos_;
  if (At("0x") || At("0X")) {
    pos_ += 2;
    size_t digits = pos_;
    while (pos_ < input_.size() && HexValue(input_[pos_]) >= 0) ++pos_;
    if (pos_ == digits) return Error("invalid hex literal");
    auto [ptr, ec] =
        std::from_chars(input_.data() + digits, input_.data() + pos_, token.int_magnitude, 16);
    if (ec != std::errc()) return SyntaxError(input_, start, "integer literal out of range");
  } else {
    while (pos_ < input_.size() && IsDigit(input_[pos_])) ++pos_;
    bool is_double = false;
    if (pos_ + 1 < input_.size() && input_[pos_] == '.' && IsDigit(input_[pos_ + 1])) {
      is_double = true;
      ++pos_;
      while (pos_ < input_.size() && IsDigit(input_[pos_])) ++pos_;
    }
    if (pos_ < input_.size() && (input_[pos_] == 'e' || input_[pos_] == 'E')) {
      size_t save = pos_++;
      if (pos_ < input_.size() && (input_[pos_] == '+' || input_[pos_] == '-')) ++pos_;
      if (pos_ < input_.size() && IsDigit(input_[pos_])) {
        is_double = true;
        while (pos_ < input_.size() && IsDigit(input_[pos_])) ++pos_;
      } else {
        pos_ = save;
      }
    }
    if (is_double) {
      token.kind = Token::Kind::kDouble;
      token.double_value =
          std::strtod(std::string(input_.substr(start, pos_ - start)).c_str(), nullptr);
      return kube::Status::Ok();
    }
    auto [ptr, ec] =
        std::from_chars(input_.data() + start, input_.data() + pos_, token.int_magnitude);
    if (ec != std::errc()) return SyntaxError(input_, start, "integer literal out of range");
  }
  if (pos_ < input_.size() && (input_[pos_] == 'u' || input_[pos_] == 'U')) {
    ++pos_;
    token.kind = Token::Kind::kUint;
    token.uint_value = token.int_magnitude;
  } else {
    token.kind = Token::Kind::kInt;
    if (token.int_magnitude > (uint64_t{1} << 63))
      return SyntaxError(input_, start, "integer literal out of range");
  }
  if (pos_ < input_.size() && IsIdentChar(input_[pos_])) return Error("invalid number literal");
  return kube::Status::Ok();
}

kube::Status Lexer::String(Token& token, bool raw) {
  size_t start = pos_;
  char quote = input_[pos_];
  std::string delimiter(At(std::string(3, quote)) ? 3 : 1, quote);
  pos_ += delimiter.size();
  token.kind = Token::Kind::kString;
  while (true) {
    if (pos_ >= input_.size()) return SyntaxError(input_, start, "unterminated string literal");
    if (At(delimiter)) {
      pos_ += delimiter.size();
      return kube::Status::Ok();
    }
    char c = input_[pos_];
    if (delimiter.size() == 1 && (c == '\n' || c == '\r'))
      return Error("newline in string literal");
    if (c == '\\' && !raw) {
      if (auto status = Escape(token.text); !status.ok()) return status;
      continue;
    }
    if (c == '\\' && raw && pos_ + 1 < input_.size() && input_[pos_ + 1] == quote &&
        delimiter.size() == 1) {
      token.text += "\\";
      token.text += quote;
      pos_ += 2;
      continue;
    }
    token.text += c;
    ++pos_;
  }
}

kube::Status Lexer::Escape(std::string& out) {
  size_t start = pos_++;
  if (pos_ >= input_.size()) return SyntaxError(input_, start, "invalid escape sequence");
  char c = input_[pos_++];
  switch (c) {
    case '\\':
      out += '\\';
      return kube::Status::Ok();
    case '"':
      out += '"';
      return kube::Status::Ok();
    case '\'':
      out += '\'';
      return kube::Status::Ok();
    case '`':
      out += '`';
      return kube::Status::Ok();
    case '?':
      out += '?';
      return kube::Status::Ok();
    case 'a':
      out += '\a';
      return kube::Status::Ok();
    case 'b':
      out += '\b';
      return kube::Status::Ok();
    case 'f':
      out += '\f';
      return kube::Status::Ok();
    case 'n':
      out += '\n';
      return kube::Status::Ok();
    case 'r':
      out += '\r';
      return kube::Status::Ok();
    case 't':
      out += '\t';
      return kube::Status::Ok();
    case 'v':
      out += '\v';
      return kube::Status::Ok();
    default:
      break;
  }
  int digits = 0, base = 16;
  if (c == 'x' || c == 'X')
    digits = 2;
  else if (c == 'u')
    digits = 4;
  else if (c == 'U')
    digits = 8;
  else if (c >= '0' && c <= '3') {
    digits = 2;
    base = 8;
  } else {
    return SyntaxError(input_, start, "invalid escape sequence");
  }
  uint32_t cp = base == 8 ? static_cast<uint32_t>(c - '0') : 0;
  for (int i = 0; i < digits; ++i) {
    int v = pos_ < input_.size() ? HexValue(input_[pos_]) : -1;
    if (v < 0 || v >= base) return SyntaxError(input_, start, "invalid escape sequence");
    cp = cp * base + v;
    ++pos_;
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return SyntaxError(input_, start, "invalid code point in escape sequence");
  AppendUtf8(out, cp);
  return kube::Status::Ok();
}

}  // namespace dra::cel
