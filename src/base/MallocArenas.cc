#include "src/base/MallocArenas.h"

#include <malloc.h>

#include <cstdlib>
#include <string_view>

namespace kube {

bool MallocArenas::ChosenByEnvironment() {
  if (std::getenv("MALLOC_ARENA_MAX") != nullptr) return true;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr &&
         std::string_view(tunables).find("glibc.malloc.arena_max") != std::string_view::npos;
}

std::string MallocArenas::Limit(int arenas) {
  if (ChosenByEnvironment()) return "arena_max left to the environment";
  if (arenas < 1 || mallopt(M_ARENA_MAX, arenas) != 1) return "arena_max not set";
  return "arena_max=" + std::to_string(arenas);
}

}  // namespace kube
