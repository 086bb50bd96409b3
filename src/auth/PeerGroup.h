#pragma once

#include <string>
#include <string_view>

namespace kube {

// The unit a per-client budget is kept for: an IPv4 address, or the /64
// network of an IPv6 address (one host can use a whole /64). An
// IPv4-mapped IPv6 address counts as its IPv4 address; anything that is
// not an address (a test's "") stands for itself.
class PeerGroup {
 public:
  static std::string Of(std::string_view address);
};

}  // namespace kube
