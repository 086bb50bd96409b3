#pragma once

#include <string>

namespace kube {

// glibc gives every thread that allocates while the others hold their arenas
// an arena of its own, up to 8 per core, and each keeps the memory freed into
// it. A process with dozens of long-lived threads (one per watch, per handler,
// per worker) then holds several copies of its freed peaks. Limit() caps the
// number of arenas, as MALLOC_ARENA_MAX does, unless the environment already
// chose: MALLOC_ARENA_MAX or a glibc.malloc.arena_max tunable in
// GLIBC_TUNABLES always wins.
class MallocArenas {
 public:
  // Call first thing in main(), before any thread starts. Returns what was
  // done, for the log: "arena_max=2" or "arena_max left to MALLOC_ARENA_MAX".
  static std::string Limit(int arenas);

  // True when the environment sets the arena limit itself.
  static bool ChosenByEnvironment();
};

}  // namespace kube
