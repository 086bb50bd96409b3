#pragma once

#include <cstdint>
#include <string_view>

namespace kube {

// The hash behind KeyedSet: SipHash-1-3 under a 128-bit key drawn from
// getrandom() once per process, so that which names collide cannot be known
// outside the process; each set adds a seed of its own, derived from that
// key, so that one set's order says nothing about another's.
class KeyedSetHash {
 public:
  // A new set's seed: unpredictable, and different for every call.
  static uint64_t NewSeed();
  static uint64_t Of(uint64_t seed, std::string_view namespace_name, std::string_view name);
};

}  // namespace kube
