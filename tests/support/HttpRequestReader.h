#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/Result.h"

namespace dra::testing {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Case-insensitive header lookups; FindHeader gives "" when absent.
std::string FindHeader(const HeaderList& headers, std::string_view name);
bool HasHeader(const HeaderList& headers, std::string_view name);

// One request as a server received it.
struct RecordedRequest {
  std::string method;
  std::string target;  // path and query as sent, e.g. "/api/v1/pods?watch=true"
  HeaderList headers;  // in arrival order, names as sent
  std::string body;    // decoded if it came chunked
  std::chrono::steady_clock::time_point arrived_at;  // when it had been read whole
  int connection = 0;  // 1-based number of the connection it arrived on

  // Case-insensitive; "" when absent.
  std::string Header(std::string_view name) const;
  std::string Path() const;   // target without the query
  std::string Query() const;  // the part after '?', "" when none
  // The raw (still percent-encoded) value of a query parameter.
  std::optional<std::string> QueryParam(std::string_view name) const;
};

// Reads HTTP/1.1 requests from a connected socket, blocking: request line,
// headers, and a Content-Length or chunked body. Bytes after one request (a
// pipelined next one) are kept for the next call. Strict where ambiguity could
// hide a client bug (conflicting lengths, folded headers, bad chunk sizes),
// lenient where RFC 9112 allows (bare LF line ends, blank lines between
// requests).
class HttpRequestReader {
 public:
  struct Request {
    RecordedRequest recorded;  // `connection` is left for the caller
    bool wants_close = false;  // "Connection: close", or HTTP/1.0 without keep-alive
  };

  explicit HttpRequestReader(int fd) : fd_(fd) {}

  // nullopt when the client closed the connection between requests; an
  // InvalidArgument error for a malformed or cut-off request, which deserves
  // a 400 and a closed connection.
  kube::Result<std::optional<Request>> Next();

 private:
  bool Fill();  // false at EOF or on a socket error
  std::string Take(std::size_t count);
  void SkipLeadingBlankLines();
  kube::Result<std::optional<std::string>> ReadHead();
  kube::Result<std::string> ReadLine();
  kube::Result<std::string> ReadExactly(std::size_t count);
  kube::Result<std::string> ReadChunkedBody();

  int fd_;
  std::string buffer_;
};

}  // namespace dra::testing
