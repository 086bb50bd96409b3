#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace re2 {
class RE2;
}

namespace dra::cel {

// A compiled pattern for CEL's matches(): RE2 syntax and semantics, as in
// Kubernetes' CEL (Go's regexp is RE2). Matching takes time linear in the
// input, so a selector cannot stall the allocator with backtracking.
class Regex {
 public:
  // Bounds what one pattern may allocate (compiled program plus DFA cache).
  // DRA patterns are short; a pattern needing more is a compile error, and
  // a match that outgrows the DFA cache falls back to RE2's NFA (still
  // linear). ProgramCache holds at most a few thousand programs.
  static constexpr int64_t kMaxMemoryBytes = int64_t{1} << 20;

  // kInvalidArgument "invalid regex '<pattern>': <reason>" when RE2 rejects
  // the pattern (including ECMAScript-only syntax such as backreferences).
  static kube::Result<std::shared_ptr<const Regex>> Compile(const std::string& pattern);

  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // True when the pattern matches any substring of `text` (CEL matches()).
  bool PartialMatch(std::string_view text) const;
  // The leftmost match, as Go's FindString (find()): "" when none.
  std::string Find(std::string_view text) const;
  // Successive non-overlapping matches, as Go's FindAllString (findAll()):
  // an empty match right after a previous match is skipped; at most
  // `limit` matches when limit >= 0.
  std::vector<std::string> FindAll(std::string_view text, int64_t limit) const;

 private:
  explicit Regex(std::unique_ptr<const re2::RE2> re);

  std::unique_ptr<const re2::RE2> re_;
};

}  // namespace dra::cel
