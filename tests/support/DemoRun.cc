#include "tests/support/DemoRun.h"

#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

// "inventory synced: N devices" with N > 0 in the log. Plain string search:
// GCC 12 warns inside <regex> under the sanitizer builds' -O1.
bool SyncedDevices(const std::string& log) {
  const std::string marker = "inventory synced: ";
  for (auto at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    size_t digit = at + marker.size();
    if (digit < log.size() && log[digit] >= '1' && log[digit] <= '9') return true;
  }
  return false;
}

}  // namespace

kube::Result<std::unique_ptr<BackgroundProcess>> DemoRun::StartSynced(
    const std::string& cluster_dir, bool node, std::chrono::seconds deadline) {
  auto demo = BackgroundProcess::Start(
      {"env", "CLUSTER_DIR=" + cluster_dir, std::string("DRA_NODE=") + (node ? "1" : "0"),
       "DEMO_METRICS_ADDR=127.0.0.1:0", "DEMO_PROBE_ADDR=127.0.0.1:0", "bash",
       std::string(DRA_REPO_ROOT) + "/hack/demo.sh", DRA_BINARY_DIR},
      BackgroundProcess::Options{.new_process_group = true});
  if (!demo.ok()) return demo.status();
  BackgroundProcess& process = **demo;
  kube::Status ready = WaitFor(
      "the demo's controller to sync", deadline,
      [&] { return SyncedDevices(process.Output()) || !process.Running(); },
      [&] { return process.Output(); });
  if (!ready.ok()) return ready;
  if (!process.Running()) {
    return kube::Status(kube::StatusCode::kInternal, "the demo exited early:\n" + process.Output());
  }
  return std::move(*demo);
}

}  // namespace dra::testing
