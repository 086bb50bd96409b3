#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "src/base/Result.h"

namespace dra::testing {

// A TCP server on 127.0.0.1 that misbehaves on purpose, for transport
// fault-injection tests. Each connection: reads whatever the client sends,
// writes `prefix`, then writes `filler` again and again until `filler_bytes`
// were written or the client hangs up, then closes the connection or stays
// silent until the client or Stop() closes it. With neither prefix nor filler it is a
// listener that accepts and never speaks (also a stalled TLS handshake).
class HostileTcpServer {
 public:
  struct Script {
    std::string prefix;
    std::string filler;
    std::size_t filler_bytes = 0;
    bool close_after_filler = false;  // otherwise silent until the client leaves
  };

  static kube::Result<std::unique_ptr<HostileTcpServer>> Start();  // accepts, never speaks
  static kube::Result<std::unique_ptr<HostileTcpServer>> Start(Script script);
  ~HostileTcpServer();
  HostileTcpServer(const HostileTcpServer&) = delete;
  HostileTcpServer& operator=(const HostileTcpServer&) = delete;

  int port() const { return port_; }
  std::string Url(const std::string& scheme = "http") const;
  int accepted() const { return accepted_.load(); }
  // Closes the listener and all connections and joins the threads. Idempotent.
  void Stop();

 private:
  HostileTcpServer(int listen_fd, int wake_read, int wake_write, int port, Script script);
  void AcceptLoop();
  void Serve(int fd);
  bool WriteAll(int fd, const std::string& bytes);  // false once the client or Stop() ends it
  bool WaitWritable(int fd);
  void DrainUntilClosed(int fd);

  int listen_fd_;
  const int wake_read_;
  const int wake_write_;
  const int port_;
  const Script script_;
  std::atomic<int> accepted_{0};
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::vector<std::thread> threads_;
  std::thread accept_thread_;
};

}  // namespace dra::testing
