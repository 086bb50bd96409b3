#include "tests/chaos/LeaderTerm.h"

namespace dra::testing {
namespace {

bool Timestamped(const std::string& line) { return line.size() > 19 && line[10] == 'T'; }

}  // namespace

std::optional<LeaderTerm> LeaderTerm::FromLog(const std::string& log) {
  size_t became = log.find(" became leader of ");
  if (became == std::string::npos) return std::nullopt;
  size_t start = log.rfind('\n', became);
  start = start == std::string::npos ? 0 : start + 1;
  LeaderTerm term;
  term.from = Second(log.substr(start));
  size_t end = log.size();
  while (end > start) {
    size_t line_start = log.rfind('\n', end - 1);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    std::string line = log.substr(line_start, end - line_start);
    if (Timestamped(line)) {
      term.to = Second(line);
      return term;
    }
    if (line_start == 0) break;
    end = line_start - 1;
  }
  term.to = term.from;
  return term;
}

}  // namespace dra::testing
