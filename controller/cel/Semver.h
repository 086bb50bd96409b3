#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace dra::cel {

// A semantic version (semver.org 2.0.0): MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD].
// Parsing is strict, like the Kubernetes semver() CEL function: no leading
// "v", no leading zeros in numeric parts, all three numbers required.
class Semver {
 public:
  static kube::Result<Semver> Parse(std::string_view text);
  // semver(s, true): drops a leading "v", leading zeros of the numbers, and
  // fills in a missing minor or patch with 0 (not when the short form
  // carries a pre-release or build suffix), then parses strictly.
  static kube::Result<Semver> ParseNormalized(std::string_view text);

  // -1, 0 or 1 by semver precedence (build metadata is ignored).
  int Compare(const Semver& other) const;
  bool operator==(const Semver& other) const { return Compare(other) == 0; }

  uint64_t major() const { return major_; }
  uint64_t minor() const { return minor_; }
  uint64_t patch() const { return patch_; }
  std::string ToString() const;

 private:
  uint64_t major_ = 0;
  uint64_t minor_ = 0;
  uint64_t patch_ = 0;
  std::vector<std::string> pre_;
  std::string build_;
};

}  // namespace dra::cel
