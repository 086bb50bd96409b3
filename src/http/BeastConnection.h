#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/http/HttpTransport.h"

namespace kube {

// One TCP connection, with TLS over it for https, on Boost.Asio. It has an
// io_context of its own that the calling thread runs, so every operation is
// bounded by a deadline and ended at once by a CancelFlag fired from another
// thread: the flag's hook stops the context, and the operation is then
// cancelled and drained before the call returns. Failures are Status
// values: kTimeout, kCancelled, kUnavailable otherwise, each saying what was
// being done. Used by one thread at a time.
class BeastConnection {
 public:
  using Clock = std::chrono::steady_clock;

  struct Target {
    std::string host;  // a name or an IP literal, without brackets
    std::string port;
    // TLS when set: settings and trust, and the name to send as SNI (unless
    // an IP) and to verify the certificate against (SAN only, as Go).
    std::shared_ptr<boost::asio::ssl::context> tls;
    std::string tls_name;
    bool verify = true;
  };

  // Resolves, connects and (for TLS) completes the handshake by `deadline`.
  static Result<std::unique_ptr<BeastConnection>> Open(const Target& target,
                                                       Clock::time_point deadline,
                                                       CancelFlag& cancel);
  ~BeastConnection();
  BeastConnection(const BeastConnection&) = delete;
  BeastConnection& operator=(const BeastConnection&) = delete;

  // `written` receives how many bytes went out, also on failure.
  Status Write(std::string_view data, Clock::time_point deadline, CancelFlag& cancel,
               size_t* written);
  // Up to `size` bytes into `buffer`; 0 when the peer closed the connection
  // cleanly (a TLS connection closed without close_notify is an error).
  Result<size_t> Read(char* buffer, size_t size, Clock::time_point deadline, CancelFlag& cancel);

  // Whether a kept-alive connection still looks usable: the server has
  // neither closed it nor sent anything unasked.
  bool LooksIdle();
  Clock::time_point idle_since() const { return idle_since_; }
  void MarkIdle() { idle_since_ = Clock::now(); }

 private:
  BeastConnection();

  Status Connect(const Target& target, Clock::time_point deadline, CancelFlag& cancel);
  Status Handshake(const Target& target, Clock::time_point deadline, CancelFlag& cancel);
  // Starts an operation with a completion handler and runs the context until
  // it completes, the deadline passes or `cancel` fires.
  template <typename Start>
  Status Run(Start start, Clock::time_point deadline, CancelFlag& cancel, const char* what);

  std::shared_ptr<boost::asio::ssl::context> tls_context_;  // outlives the stream
  boost::asio::io_context io_{1};
  boost::asio::ip::tcp::socket socket_{io_};
  std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>> tls_;
  Clock::time_point idle_since_ = Clock::now();
  size_t last_bytes_ = 0;                 // of the last operation
  boost::system::error_code read_error_;  // of the last read
};

}  // namespace kube
