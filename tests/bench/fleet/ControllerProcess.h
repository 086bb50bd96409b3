#pragma once

#include <memory>
#include <string>

#include "src/base/Result.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/TempDir.h"

namespace dra::bench {

// The real `dra-controller run` binary (next to tests/ in the build
// directory) against the replay server, with metrics and probes on port 0.
struct ControllerProcess {
  std::unique_ptr<dra::testing::BackgroundProcess> process;
  dra::testing::TempDir dir;
  int probe_port = 0;
  int metrics_port = 0;
  double sync_seconds = 0;
  double sync_cpu_seconds = 0;

  // Starts it on the server at 127.0.0.1:`server_port` and waits (900 s at
  // most) until /readyz answers 200: sync_seconds from exec to that.
  kube::Status Start(int server_port);
  // Its /metrics text; empty when the request fails.
  std::string Scrape() const;

  // A kubeconfig in `dir` for http://127.0.0.1:<server_port>; its path.
  static std::string WriteKubeconfig(const dra::testing::TempDir& dir, int server_port);
};

}  // namespace dra::bench
