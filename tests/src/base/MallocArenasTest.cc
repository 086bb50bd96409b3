#include <gtest/gtest.h>

#include "src/base/MallocArenas.h"
#include "tests/support/ScopedEnv.h"

namespace kube {
namespace {

using dra::testing::ScopedEnv;

TEST(MallocArenasTest, TheEnvironmentsArenaLimitWins) {
  ScopedEnv tunables("GLIBC_TUNABLES", nullptr);
  {
    ScopedEnv arenas("MALLOC_ARENA_MAX", "8");
    EXPECT_TRUE(MallocArenas::ChosenByEnvironment());
    EXPECT_EQ(MallocArenas::Limit(2), "arena_max left to the environment");
  }
  ScopedEnv arenas("MALLOC_ARENA_MAX", nullptr);
  EXPECT_FALSE(MallocArenas::ChosenByEnvironment());
  ScopedEnv other("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0");
  EXPECT_FALSE(MallocArenas::ChosenByEnvironment());
  ScopedEnv arena_tunable("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0:glibc.malloc.arena_max=4");
  EXPECT_TRUE(MallocArenas::ChosenByEnvironment());
}

TEST(MallocArenasTest, LimitsTheArenasWhenTheEnvironmentDoesNot) {
  ScopedEnv tunables("GLIBC_TUNABLES", nullptr);
  ScopedEnv arenas("MALLOC_ARENA_MAX", nullptr);
  EXPECT_EQ(MallocArenas::Limit(0), "arena_max not set");
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  // glibc's default is 8 per core; set it back after the check.
  EXPECT_EQ(MallocArenas::Limit(64), "arena_max=64");
#endif
}

}  // namespace
}  // namespace kube
