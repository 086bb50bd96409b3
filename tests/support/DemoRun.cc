#include "tests/support/DemoRun.h"

#include <regex>

#include "tests/support/WaitFor.h"

namespace dra::testing {

kube::Result<std::unique_ptr<BackgroundProcess>> DemoRun::StartSynced(
    const std::string& cluster_dir, bool node, std::chrono::seconds deadline) {
  auto demo = BackgroundProcess::Start(
      {"env", "CLUSTER_DIR=" + cluster_dir, std::string("DRA_NODE=") + (node ? "1" : "0"),
       "DEMO_METRICS_ADDR=127.0.0.1:0", "DEMO_PROBE_ADDR=127.0.0.1:0", "bash",
       std::string(DRA_REPO_ROOT) + "/hack/demo.sh", DRA_BINARY_DIR},
      BackgroundProcess::Options{.new_process_group = true});
  if (!demo.ok()) return demo.status();
  BackgroundProcess& process = **demo;
  const std::regex synced("inventory synced: [1-9][0-9]* devices");
  kube::Status ready = WaitFor(
      "the demo's controller to sync", deadline,
      [&] { return std::regex_search(process.Output(), synced) || !process.Running(); },
      [&] { return process.Output(); });
  if (!ready.ok()) return ready;
  if (!process.Running()) {
    return kube::Status(kube::StatusCode::kInternal, "the demo exited early:\n" + process.Output());
  }
  return std::move(*demo);
}

}  // namespace dra::testing
