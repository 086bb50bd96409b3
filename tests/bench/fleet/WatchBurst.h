#pragma once

#include <atomic>
#include <string>

namespace dra::bench {

// A batch of watch events served to the next watch of `path` once the bench
// asks for it (`wanted`). The watch held before that ends so the reflector
// comes back for it: it survives the watches the client restarts on its own.
struct WatchBurst {
  explicit WatchBurst(std::string p) : path(std::move(p)) {}
  std::string path;
  std::atomic<bool> wanted{false};
};

}  // namespace dra::bench
