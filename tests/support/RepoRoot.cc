#include "tests/support/RepoRoot.h"

namespace dra::testing {

std::string RepoRoot::Path(const std::string& relative) {
  return std::string(DRA_REPO_ROOT) + "/" + relative;
}

}  // namespace dra::testing
