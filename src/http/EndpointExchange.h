#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "src/http/EndpointRouter.h"

namespace kube {

// One request's reading and admission, free of sockets: bytes go in as they
// arrive, through Beast's request parser with its limits (request line and
// headers together at most kMaxHeadBytes, the route's body limit) and the
// router's admission, until the request is ready for its route or rejected.
// The connection then answers and closes (no keep-alive). Not thread-safe.
class EndpointExchange {
 public:
  static constexpr std::size_t kMaxHeadBytes = 8 * 1024;

  enum class Step {
    kNeedMore,   // feed more bytes
    kReject,     // answer with rejection()
    kReady,      // answer with the route's reply to request()
    kAdmitHead,  // ask the route's admit_head about request() (no body yet), then Admitted()
  };

  explicit EndpointExchange(const EndpointRouter& router);
  ~EndpointExchange();
  EndpointExchange(const EndpointExchange&) = delete;
  EndpointExchange& operator=(const EndpointExchange&) = delete;

  Step Feed(std::string_view bytes);
  // The client closed its side: a request cut short is malformed.
  Step FeedEnd();
  // After kAdmitHead, when the route's admit_head let the request on: the
  // body is read from here (bytes fed before wait unparsed till now).
  Step Admitted();
  // The client's address, for request().peer.
  void SetPeer(std::string peer) { request_.peer = std::move(peer); }

  const EndpointReply& rejection() const { return rejection_; }
  const EndpointRoute* route() const { return route_; }
  const EndpointRequest& request() const { return request_; }
  // A HEAD request: the reply goes out without its body.
  bool head_only() const { return head_only_; }

 private:
  struct Parser;

  Step Reject(int status, std::string body);
  Step Parse();
  Step AdmitHead();
  void TakeHead();
  Step Ready();

  const EndpointRouter& router_;
  std::unique_ptr<Parser> parser_;
  bool admitted_ = false;
  bool awaiting_admission_ = false;
  const EndpointRoute* route_ = nullptr;
  EndpointRequest request_;
  EndpointReply rejection_;
  bool head_only_ = false;
};

}  // namespace kube
