#pragma once

#include <memory>
#include <string>

#include "src/base/Result.h"
#include "tests/support/BackgroundProcess.h"

namespace dra::testing {

// `make demo` as a newcomer runs it: hack/demo.sh in a process group of its
// own (so a Ctrl-C, SIGINT to the group, reaches all of it), with its
// cluster in `cluster_dir` and the controller's ports free.
class DemoRun {
 public:
  // Starts the demo (with the real node when `node`) and returns once its
  // controller has synced a non-empty inventory; an error with the output
  // when it exits or does not sync within `deadline`.
  static kube::Result<std::unique_ptr<BackgroundProcess>> StartSynced(
      const std::string& cluster_dir, bool node, std::chrono::seconds deadline);
};

}  // namespace dra::testing
