#pragma once

#include <openssl/ssl.h>

#include <atomic>
#include <memory>
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

  int port() const { return port_; }
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
};

}  // namespace dra::testing
