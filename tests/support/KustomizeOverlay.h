#pragma once

#include <string>
#include <vector>

#include "tests/support/TempDir.h"

namespace dra::testing {

// A kustomization in a temporary directory that installs directories of the
// repository (`resources`) with repository components (`components`), as an
// operator's overlay does. kustomize takes only relative paths to components.
class KustomizeOverlay {
 public:
  // `extra`: more of the kustomization, as written (e.g. a `patches:` block).
  KustomizeOverlay(const std::vector<std::string>& resources,
                   const std::vector<std::string>& components, const std::string& extra = "");

  std::string path() const { return dir_.path().string(); }

 private:
  TempDir dir_;
};

}  // namespace dra::testing
