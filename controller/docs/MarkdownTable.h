#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dra::docs {

// A GitHub-flavoured Markdown table for the generated reference pages: cells
// are kept on one line and their pipes escaped, so any help text fits.
class MarkdownTable {
 public:
  explicit MarkdownTable(std::vector<std::string> header);

  void AddRow(std::vector<std::string> cells);
  std::string Render() const;

  // `text` in backticks, or "" for empty text.
  static std::string Code(std::string_view text);
  // `text` on one line, its pipes escaped and, outside code spans, its angle
  // brackets (which Markdown would take for HTML).
  static std::string Inline(std::string_view text);

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace dra::docs
