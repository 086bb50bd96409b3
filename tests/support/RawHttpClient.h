#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "src/base/Result.h"

namespace dra::testing {

// One plain-HTTP/1.1 request on a fresh loopback connection, read until the
// server closes it, with nothing between the test and the socket (no client
// library that could buffer, decode or limit the body). For measuring and
// checking what an EndpointServer writes.
class RawHttpClient {
 public:
  struct Response {
    std::string head;  // status line and headers, through the blank line
    std::string body;  // empty unless kept
    std::size_t body_bytes = 0;
  };

  // `keep_body` false counts the body's bytes without storing them.
  static kube::Result<Response> Send(int port, const std::string& method, const std::string& path,
                                     bool keep_body = true,
                                     std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // A connected loopback socket with `timeout` on reads and writes, or -1.
  static int Connect(int port, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // The Content-Length header's value, or -1.
  static long long ContentLength(const std::string& head);
};

}  // namespace dra::testing
