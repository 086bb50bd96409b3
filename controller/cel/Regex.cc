#include "controller/cel/Regex.h"

#include <re2/re2.h>

namespace dra::cel {
namespace {

RE2::Options Options() {
  RE2::Options options;  // UTF-8, case-sensitive, leftmost-first: Go's defaults
  options.set_log_errors(false);
  options.set_max_mem(Regex::kMaxMemoryBytes);
  return options;
}

// Patterns written for ECMAScript or PCRE most often fail on features that
// need backtracking; name them so the selector's author knows what to change.
std::string Hint(RE2::ErrorCode code) {
  switch (code) {
    case RE2::ErrorBadEscape:  // \1, \k<name>
    case RE2::ErrorBadPerlOp:  // (?= (?! (?<=
      return " (RE2 syntax: backreferences and lookaround are not supported)";
    case RE2::ErrorPatternTooLarge:
      return " (limit " + std::to_string(Regex::kMaxMemoryBytes) + " bytes)";
    default:
      return "";
  }
}

}  // namespace

kube::Result<std::shared_ptr<const Regex>> Regex::Compile(const std::string& pattern) {
  auto re = std::make_unique<const RE2>(pattern, Options());
  if (!re->ok())
    return kube::Status(kube::StatusCode::kInvalidArgument,
                        "invalid regex '" + pattern + "': " + re->error() + Hint(re->error_code()));
  return std::shared_ptr<const Regex>(new Regex(std::move(re)));
}

Regex::Regex(std::unique_ptr<const RE2> re) : re_(std::move(re)) {}

Regex::~Regex() = default;

bool Regex::PartialMatch(std::string_view text) const { return RE2::PartialMatch(text, *re_); }

std::string Regex::Find(std::string_view text) const {
  re2::StringPiece match;
  if (!re_->Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) return "";
  return std::string(match.data(), match.size());
}

std::vector<std::string> Regex::FindAll(std::string_view text, int64_t limit) const {
  std::vector<std::string> out;
  size_t pos = 0;
  size_t previous_end = std::string_view::npos;
  while (pos <= text.size() && (limit < 0 || static_cast<int64_t>(out.size()) < limit)) {
    re2::StringPiece match;
    if (!re_->Match(text, pos, text.size(), RE2::UNANCHORED, &match, 1)) break;
    size_t start = static_cast<size_t>(match.data() - text.data());
    size_t end = start + match.size();
    if (!(match.empty() && start == previous_end)) out.emplace_back(match.data(), match.size());
    previous_end = end;
    if (end > start) {
      pos = end;
      continue;
    }
    // Step over one UTF-8 character after an empty match.
    pos = start + 1;
    while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
  }
  return out;
}

}  // namespace dra::cel
