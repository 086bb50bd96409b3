#include "src/cache/JsonSpans.h"

namespace kube::json {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

Status NotA(char open) {
  return Status(StatusCode::kParseError, open == '{' ? "not a JSON object" : "not a JSON array");
}

// The comma-separated pieces directly inside the container `text` opened by `open`.
Result<std::vector<std::string_view>> Pieces(std::string_view text, char open, char close) {
  text = Trim(text);
  if (text.empty() || text.front() != open) return NotA(open);
  std::vector<std::string_view> pieces;
  size_t depth = 1, start = 1;
  bool in_string = false, escaped = false;
  for (size_t i = 1; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == ',' && depth == 1) {
      pieces.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      if (c != close || i + 1 != text.size()) return NotA(open);
      pieces.push_back(Trim(text.substr(start, i - start)));
      if (pieces.size() == 1 && pieces[0].empty()) pieces.clear();
      for (auto piece : pieces) {
        if (piece.empty()) return Status(StatusCode::kParseError, "empty JSON member");
      }
      return pieces;
    }
  }
  return Status(StatusCode::kParseError, "unterminated JSON container");
}

Result<Member> SplitMember(std::string_view piece) {
  if (piece.empty() || piece.front() != '"') {
    return Status(StatusCode::kParseError, "JSON member without a key");
  }
  bool escaped = false;
  for (size_t i = 1; i < piece.size(); ++i) {
    if (escaped) {
      escaped = false;
    } else if (piece[i] == '\\') {
      escaped = true;
    } else if (piece[i] == '"') {
      std::string_view rest = Trim(piece.substr(i + 1));
      if (rest.empty() || rest.front() != ':') break;
      return Member{piece.substr(1, i - 1), Trim(rest.substr(1))};
    }
  }
  return Status(StatusCode::kParseError, "malformed JSON member");
}

}  // namespace

Result<std::vector<Member>> ObjectMembers(std::string_view text) {
  auto pieces = Pieces(text, '{', '}');
  if (!pieces.ok()) return pieces.status();
  std::vector<Member> members;
  members.reserve(pieces->size());
  for (auto piece : *pieces) {
    auto member = SplitMember(piece);
    if (!member.ok()) return member.status();
    members.push_back(*member);
  }
  return members;
}

Result<std::vector<std::string_view>> ArrayElements(std::string_view text) {
  return Pieces(text, '[', ']');
}

std::string_view MemberText(std::string_view text, std::string_view key) {
  auto members = ObjectMembers(text);
  if (!members.ok()) return {};
  for (const auto& member : *members) {
    if (member.key == key) return member.value;
  }
  return {};
}

}  // namespace kube::json
