#pragma once

#include <string>
#include <string_view>

namespace kube {

// The unit a per-client budget is kept for: one IP address in one spelling.
// An IPv4-mapped IPv6 address counts as its IPv4 address, and an IPv6
// address is written canonically. Not a /64 for IPv6: in a cluster the Pods
// of a node often share one, and a Pod cannot pick its source address.
// Anything that is not an address (a test's "") stands for itself.
class PeerGroup {
 public:
  static std::string Of(std::string_view address);
};

}  // namespace kube
