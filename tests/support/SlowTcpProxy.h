#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "src/base/Result.h"

namespace dra::testing {

// A TCP proxy on 127.0.0.1 that forwards every connection to 127.0.0.1:
// `upstream_port` and holds each chunk the upstream sends for `delay` before
// passing it on: a slow API server, TLS untouched (the server certificate
// names 127.0.0.1 whatever the port).
class SlowTcpProxy {
 public:
  static kube::Result<std::unique_ptr<SlowTcpProxy>> Start(int upstream_port,
                                                           std::chrono::milliseconds delay);
  ~SlowTcpProxy();
  SlowTcpProxy(const SlowTcpProxy&) = delete;
  SlowTcpProxy& operator=(const SlowTcpProxy&) = delete;

  int port() const { return port_; }
  int connections() const { return accepted_.load(); }
  // Closes the listener and every connection and joins the threads. Idempotent.
  void Stop();

 private:
  SlowTcpProxy(int listen_fd, int wake_read, int wake_write, int port, int upstream_port,
               std::chrono::milliseconds delay);
  void AcceptLoop();
  void Forward(int client);
  // False once Stop() was called during the wait.
  bool Wait(std::chrono::milliseconds how_long) const;
  void Track(int fd, bool open);

  const int listen_fd_;
  const int wake_read_;
  const int wake_write_;
  const int port_;
  const int upstream_port_;
  const std::chrono::milliseconds delay_;
  std::atomic<int> accepted_{0};
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::set<int> open_fds_;
  std::vector<std::thread> threads_;
  std::thread accept_thread_;
};

}  // namespace dra::testing
