#include "controller/docs/MarkdownTable.h"

namespace dra::docs {

MarkdownTable::MarkdownTable(std::vector<std::string> header) : header_(std::move(header)) {}

void MarkdownTable::AddRow(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::Inline(std::string_view text) {
  std::string out;
  bool space = false;
  bool code = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    if (c == '`') code = !code;
    if (c == '|' || (!code && (c == '<' || c == '>'))) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string MarkdownTable::Code(std::string_view text) {
  if (text.empty()) return "";
  // A backtick inside needs a longer fence (CommonMark code spans).
  std::string fence = text.find('`') == std::string_view::npos ? "`" : "`` ";
  std::string close = fence == "`" ? "`" : " ``";
  return fence + std::string(text) + close;
}

std::string MarkdownTable::Render() const {
  std::string out = "|";
  for (const auto& h : header_) out += " " + Inline(h) + " |";
  out += "\n|";
  for (size_t i = 0; i < header_.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& cell : row) out += " " + Inline(cell) + " |";
    out += "\n";
  }
  return out;
}

}  // namespace dra::docs
