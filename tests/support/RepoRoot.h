#pragma once

#include <string>

namespace dra::testing {

// The checkout the tests were built from, for tests that compare with files
// checked in (docs/reference/).
class RepoRoot {
 public:
  static std::string Path(const std::string& relative);
};

}  // namespace dra::testing
