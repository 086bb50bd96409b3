#include "src/cache/KeyedSetHash.h"

#include <sys/random.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>

#include "src/base/SipHash.h"

namespace kube {
namespace {

struct ProcessKey {
  uint64_t k0 = 0;
  uint64_t k1 = 0;
};

ProcessKey DrawKey() {
  std::array<uint64_t, 2> words{};
  auto* bytes = reinterpret_cast<char*>(words.data());
  size_t got = 0;
  while (got < sizeof(words)) {
    ssize_t n = getrandom(bytes + got, sizeof(words) - got, 0);
    if (n > 0) {
      got += static_cast<size_t>(n);
    } else if (errno != EINTR) {
      break;
    }
  }
  if (got < sizeof(words)) {
    // No getrandom (kernels before 3.17): the clock and an address, which
    // differ between processes but are guessable. Never seen on supported
    // nodes; kept so that the table still works.
    words[0] ^= static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    words[1] ^= reinterpret_cast<uintptr_t>(&words);
  }
  return {words[0], words[1]};
}

const ProcessKey& Key() {
  static const ProcessKey key = DrawKey();
  return key;
}

}  // namespace

uint64_t KeyedSetHash::NewSeed() {
  static std::atomic<uint64_t> sets{0};
  uint64_t number = sets.fetch_add(1, std::memory_order_relaxed);
  SipHash hash(Key().k0, Key().k1);
  hash.Update(std::string_view(reinterpret_cast<const char*>(&number), sizeof(number)));
  return hash.Finish();
}

uint64_t KeyedSetHash::Of(uint64_t seed, std::string_view namespace_name, std::string_view name) {
  SipHash hash(Key().k0 ^ seed, Key().k1);
  // The namespace's length first: ("ab", "c") and ("a", "bc") differ.
  uint64_t length = namespace_name.size();
  hash.Update(std::string_view(reinterpret_cast<const char*>(&length), sizeof(length)));
  hash.Update(namespace_name);
  hash.Update(name);
  return hash.Finish();
}

}  // namespace kube
