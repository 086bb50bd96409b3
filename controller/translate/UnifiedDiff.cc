#include "controller/translate/UnifiedDiff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dra::translate {
namespace {

constexpr size_t kContext = 3;

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    size_t next = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(pos, next - pos));
    pos = next;
  }
  return lines;
}

struct Edit {
  char op;  // ' ', '-', '+'
  std::string_view line;
  size_t a, b;  // line numbers (0-based) in before/after at this edit
};

constexpr size_t kMaxTable = size_t{1} << 22;  // cells; beyond it the middle is replaced whole

// The lines between the common prefix and suffix, by longest common
// subsequence (dynamic programming) when the table is small enough.
void MiddleEdits(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                 size_t head, size_t a_end, size_t b_end, std::vector<Edit>& edits) {
  size_t rows = a_end - head, cols = b_end - head;
  if ((rows + 1) * (cols + 1) > kMaxTable) {
    for (size_t i = head; i < a_end; ++i) edits.push_back({'-', a[i], i, head});
    for (size_t j = head; j < b_end; ++j) edits.push_back({'+', b[j], a_end, j});
    return;
  }
  std::vector<std::vector<uint32_t>> lcs(rows + 1, std::vector<uint32_t>(cols + 1, 0));
  for (size_t i = rows; i-- > 0;) {
    for (size_t j = cols; j-- > 0;) {
      lcs[i][j] = a[head + i] == b[head + j] ? lcs[i + 1][j + 1] + 1
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  size_t i = 0, j = 0;
  while (i < rows || j < cols) {
    if (i < rows && j < cols && a[head + i] == b[head + j]) {
      edits.push_back({' ', a[head + i], head + i, head + j});
      ++i, ++j;
    } else if (i < rows && (j == cols || lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({'-', a[head + i], head + i, head + j});
      ++i;
    } else {
      edits.push_back({'+', b[head + j], head + i, head + j});
      ++j;
    }
  }
}

std::vector<Edit> Edits(const std::vector<std::string_view>& a,
                        const std::vector<std::string_view>& b) {
  size_t n = a.size(), m = b.size();
  size_t head = 0;
  while (head < n && head < m && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail]) ++tail;
  std::vector<Edit> edits;
  for (size_t k = 0; k < head; ++k) edits.push_back({' ', a[k], k, k});
  MiddleEdits(a, b, head, n - tail, m - tail, edits);
  for (size_t k = tail; k > 0; --k) edits.push_back({' ', a[n - k], n - k, m - k});
  return edits;
}

void AppendLine(std::string& out, char op, std::string_view line) {
  out += op;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

void AppendHunk(std::string& out, const std::vector<Edit>& edits, size_t from, size_t to) {
  size_t a_count = 0, b_count = 0;
  for (size_t k = from; k < to; ++k) {
    if (edits[k].op != '+') ++a_count;
    if (edits[k].op != '-') ++b_count;
  }
  size_t a_start = edits[from].a + (a_count ? 1 : 0);
  size_t b_start = edits[from].b + (b_count ? 1 : 0);
  out += "@@ -" + std::to_string(a_start) + "," + std::to_string(a_count) + " +" +
         std::to_string(b_start) + "," + std::to_string(b_count) + " @@\n";
  for (size_t k = from; k < to; ++k) AppendLine(out, edits[k].op, edits[k].line);
}

}  // namespace

std::string UnifiedDiff::Make(std::string_view before, std::string_view after,
                              const std::string& from_name, const std::string& to_name) {
  if (before == after) return "";
  std::vector<Edit> edits = Edits(Lines(before), Lines(after));
  std::string out = "--- " + from_name + "\n+++ " + to_name + "\n";
  size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].op == ' ') {
      ++k;
      continue;
    }
    size_t from = k >= kContext ? k - kContext : 0;
    size_t to = k;
    // Extend while the next change is within 2 * context lines.
    while (to < edits.size()) {
      if (edits[to].op != ' ') {
        ++to;
        continue;
      }
      size_t run = to;
      while (run < edits.size() && edits[run].op == ' ') ++run;
      if (run == edits.size() || run - to > 2 * kContext) {
        to = std::min(to + kContext, edits.size());
        break;
      }
      to = run;
    }
    AppendHunk(out, edits, from, to);
    k = to;
  }
  return out;
}

}  // namespace dra::translate
