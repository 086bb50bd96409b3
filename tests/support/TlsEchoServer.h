#pragma once

#include <openssl/ssl.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "src/base/Result.h"

namespace dra::testing {

// A minimal HTTPS server on 127.0.0.1 for TLS tests. One connection at a
// time; each gets one "200" answer whose body is the common name of the
// client certificate ("none" without one), then the connection is closed.
class TlsEchoServer {
 public:
  // `client_ca` non-empty: client certificates signed by it are required.
  static kube::Result<std::unique_ptr<TlsEchoServer>> Start(const std::string& cert_file,
                                                            const std::string& key_file,
                                                            const std::string& client_ca = "");
  ~TlsEchoServer();
  TlsEchoServer(const TlsEchoServer&) = delete;
  TlsEchoServer& operator=(const TlsEchoServer&) = delete;

  // How each answer ends: framed by Content-Length and close_notify (the
  // default), unframed (the body ends with the connection) with close_notify,
  // or unframed with the TCP connection closed and no close_notify, as a
  // truncating attacker would.
  enum class Ending { kFramed, kUnframed, kUnframedTruncated };
  void SetEnding(Ending ending) { ending_ = ending; }

  int port() const { return port_; }
  // The head of the last request served ("" before the first).
  std::string LastRequest() const {
    std::lock_guard lock(mu_);
    return last_request_;
  }
  std::string Url() const { return "https://127.0.0.1:" + std::to_string(port_); }

 private:
  TlsEchoServer() = default;
  void AcceptLoop();
  void Serve(int fd);

  SSL_CTX* ctx_ = nullptr;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  int port_ = 0;
  std::thread thread_;
  std::atomic<Ending> ending_{Ending::kFramed};
  mutable std::mutex mu_;
  std::string last_request_;
};

}  // namespace dra::testing
