#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/base/FakeClock.h"
#include "src/base/HeapTrimmer.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using std::chrono::seconds;
constexpr std::size_t kMiB = 1 << 20;

using Outcome = HeapTrimmer::Outcome;

// A process whose figures the test sets: `code` MiB of code and stacks, the
// heap in use, and free heap still resident until a trim gives it back.
struct FakeHeap {
  std::size_t code = 20 * kMiB;
  std::size_t in_use = 0;
  std::size_t free_resident = 0;
  int trims = 0;
  HeapTrimmer::Probe probe() {
    return {.read =
                [this] {
                  return HeapTrimmer::Probe::Reading{in_use, resident()};
                },
            .trim =
                [this] {
                  ++trims;
                  free_resident = 0;
                },
            .resident = nullptr};
  }
  std::size_t resident() const { return code + in_use + free_resident; }
  // Frees `bytes` of the heap; they stay resident.
  void Free(std::size_t bytes) {
    in_use -= bytes;
    free_resident += bytes;
  }
};

// The heap's probe for tests that change the heap while the loop runs: every
// call holds `mu`, full reads are counted in `checks`, and with `peeks` the
// probe also offers counted RSS peeks.
HeapTrimmer::Probe LockedProbe(FakeHeap& heap, std::mutex& mu, std::atomic<int>& checks,
                               std::atomic<int>* peeks = nullptr) {
  HeapTrimmer::Probe probe{.read =
                               [&heap, &mu, &checks] {
                                 std::lock_guard lock(mu);
                                 ++checks;
                                 return HeapTrimmer::Probe::Reading{heap.in_use, heap.resident()};
                               },
                           .trim =
                               [&heap, &mu] {
                                 std::lock_guard lock(mu);
                                 ++heap.trims;
                                 heap.free_resident = 0;
                               },
                           .resident = nullptr};
  if (peeks != nullptr) {
    probe.resident = [&heap, &mu, peeks] {
      std::lock_guard lock(mu);
      ++*peeks;
      return heap.resident();
    };
  }
  return probe;
}

TEST(HeapTrimmerTest, OnALargeHeapOnlyAShareOfItIsWorthATrim) {
  FakeHeap heap;
  HeapTrimmer trimmer(4 * kMiB, heap.probe(), nullptr, 0.125);
  heap.in_use = 400 * kMiB;
  trimmer.Tick();
  heap.Free(40 * kMiB);  // a render's transient: under 1/8 of 360 MiB
  EXPECT_NE(trimmer.Tick(), Outcome::kTrimmed);
  heap.in_use += 40 * kMiB;  // the next render reuses it
  heap.free_resident = 0;
  trimmer.Tick();
  heap.Free(200 * kMiB);  // a burst's worth, more than 1/8 of what stays
  EXPECT_EQ(trimmer.Tick(), Outcome::kTrimmed);
  EXPECT_EQ(heap.trims, 1);
}

TEST(HeapTrimmerTest, NeverTrimsAGrowingHeapOrOneThatFreedLessThanTheMinimum) {
  FakeHeap heap;
  HeapTrimmer trimmer(4 * kMiB, heap.probe());
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved);  // 20 MiB of slack, the first reading
  heap.in_use = 100 * kMiB;
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved);
  heap.Free(3 * kMiB);
  EXPECT_EQ(trimmer.Tick(), Outcome::kSteady);
  heap.in_use += 30 * kMiB;  // reuses the 3 MiB and grows
  heap.free_resident = 0;
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved);
  EXPECT_EQ(heap.trims, 0);
}

TEST(HeapTrimmerTest, TrimsOnceWhenTheHeapFreedResidentMemoryThenOnlyAfterMoreWasFreed) {
  FakeHeap heap;
  HeapTrimmer trimmer(4 * kMiB, heap.probe());
  heap.in_use = 100 * kMiB;  // the initial sync decodes its lists
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved);
  heap.Free(40 * kMiB);  // ... and frees them once cached
  EXPECT_EQ(trimmer.Tick(), Outcome::kTrimmed);
  EXPECT_EQ(heap.resident(), 80 * kMiB);
  EXPECT_EQ(trimmer.Tick(), Outcome::kSteady) << "nothing new was freed since the trim";
  heap.Free(3 * kMiB);
  EXPECT_EQ(trimmer.Tick(), Outcome::kSteady) << "3 MiB is under the minimum";
  heap.in_use += 20 * kMiB;  // a burst of objects reuses them and grows
  heap.free_resident = 0;
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved);
  heap.Free(10 * kMiB);  // deleted again
  EXPECT_EQ(trimmer.Tick(), Outcome::kTrimmed);
  EXPECT_EQ(heap.trims, 2);
  EXPECT_EQ(trimmer.trims(), 2u);
}

// A transient (a render, a relist page) that grew into the pages a trim gave
// back and was freed between two checks leaves the bytes in use where they
// were; the resident slack it left behind still says to trim.
TEST(HeapTrimmerTest, TrimsAfterATransientItNeverSaw) {
  FakeHeap heap;
  HeapTrimmer trimmer(4 * kMiB, heap.probe());
  heap.in_use = 60 * kMiB;
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved);
  heap.free_resident = 30 * kMiB;  // came and went between two checks
  EXPECT_EQ(trimmer.Tick(), Outcome::kTrimmed);
  EXPECT_EQ(trimmer.Tick(), Outcome::kSteady);
  heap.free_resident = 30 * kMiB;  // the same again, after the trim
  EXPECT_EQ(trimmer.Tick(), Outcome::kTrimmed);
  EXPECT_EQ(heap.trims, 2);
}

// The loop checks after `min_period`, doubles the wait after each steady
// check up to `max_period`, and is back at `min_period` once the heap moves.
TEST(HeapTrimmerTest, TheLoopBacksOffWhileTheHeapIsSteadyAndStopsAtOnce) {
  FakeHeap heap;
  heap.code = 0;  // nothing to read: the first check is steady
  std::atomic<int> checks{0};
  std::mutex mu;
  auto counted = LockedProbe(heap, mu, checks);
  auto clock = std::make_shared<FakeClock>();
  HeapTrimmer trimmer(4 * kMiB, counted, clock);
  ASSERT_TRUE(trimmer.Start(seconds(2), seconds(8)));
  // Steps the clock by `delta` once the loop sleeps; then waits until it has
  // made `expected` checks in all and sleeps again.
  auto step = [&](int delta, int expected) {
    EXPECT_TRUE(dra::testing::WaitFor("the loop sleeps", seconds(10), [&] {
                  return clock->NumWaiters() > 0;
                }).ok());
    clock->Step(seconds(delta));
    EXPECT_TRUE(
        dra::testing::WaitFor("check " + std::to_string(expected), seconds(10),
                              [&] { return checks.load() == expected && clock->NumWaiters() > 0; })
            .ok())
        << checks.load() << " checks after a step of " << delta << " s";
  };
  step(1, 1);  // the check at start (the floor), then none before the first period
  step(1, 2);  // 2 s: steady, so the next wait is 4 s
  step(3, 2);
  step(1, 3);  // then 8 s, the maximum
  step(7, 3);
  step(1, 4);
  step(7, 4);
  {
    std::lock_guard lock(mu);
    heap.in_use = 50 * kMiB;  // moving again: back to 2 s
  }
  step(1, 5);
  step(2, 6);
  trimmer.Stop();
  EXPECT_EQ(checks.load(), 6);
}

// The loop's first check is at start, before the process loads anything:
// what an initial sync leaves resident between two checks is measured
// against that floor, so it is given back at the first check after it.
TEST(HeapTrimmerTest, WhatTheInitialSyncLeftBeforeTheFirstPeriodIsTrimmed) {
  FakeHeap heap;
  heap.in_use = 3 * kMiB;
  std::mutex mu;
  std::atomic<int> checks{0};
  auto locked = LockedProbe(heap, mu, checks);
  auto clock = std::make_shared<FakeClock>();
  HeapTrimmer trimmer(4 * kMiB, locked, clock, 0.125);
  ASSERT_TRUE(trimmer.Start(seconds(2), seconds(64)));
  ASSERT_TRUE(dra::testing::WaitFor("the loop sleeps", seconds(10), [&] {
                return clock->NumWaiters() > 0;
              }).ok());
  {
    std::lock_guard lock(mu);
    heap.in_use = 187 * kMiB;
    heap.free_resident = 86 * kMiB;  // decoded lists and a render, freed
  }
  clock->Step(seconds(2));
  EXPECT_TRUE(
      dra::testing::WaitFor("a trim", seconds(10), [&] { return trimmer.trims() == 1; }).ok())
      << "the sync's leftovers were taken for the floor";
  trimmer.Stop();
}

// With a cheap resident reading the loop looks at RSS every `min_period` and
// makes a full check only when the back-off has passed or RSS moved: a
// transient that faults pages in (a metrics render) is checked within
// `min_period`, and trimmed once freed, not a back-off later.
TEST(HeapTrimmerTest, AResidentJumpCutsTheBackOffShort) {
  FakeHeap heap;
  heap.code = 0;
  std::atomic<int> checks{0};
  std::atomic<int> peeks{0};
  std::mutex mu;
  auto counted = LockedProbe(heap, mu, checks, &peeks);
  auto clock = std::make_shared<FakeClock>();
  HeapTrimmer trimmer(4 * kMiB, counted, clock);
  ASSERT_TRUE(trimmer.Start(seconds(2), seconds(16)));
  // Steps 2 s at a time once the loop sleeps, then waits for it to sleep again.
  auto tick = [&] {
    EXPECT_TRUE(dra::testing::WaitFor("the loop sleeps", seconds(10), [&] {
                  return clock->NumWaiters() > 0;
                }).ok());
    int before = peeks.load() + checks.load();
    clock->Step(seconds(2));
    EXPECT_TRUE(dra::testing::WaitFor("the loop looks", seconds(10), [&] {
                  return peeks.load() + checks.load() > before && clock->NumWaiters() > 0;
                }).ok());
  };
  tick();  // 2 s: the first full check after the one at start, steady; the next after 4 s
  EXPECT_EQ(checks.load(), 2);
  tick();
  tick();  // 6 s: steady again; the next is due after 8 s
  EXPECT_EQ(checks.load(), 3);
  tick();  // 8 s: RSS unchanged, so only a peek
  EXPECT_EQ(checks.load(), 3);
  {
    std::lock_guard lock(mu);
    heap.in_use = 80 * kMiB;  // a render faults pages in
  }
  tick();  // 10 s: RSS moved, a full check long before the back-off ends
  EXPECT_EQ(checks.load(), 4);
  {
    std::lock_guard lock(mu);
    heap.Free(70 * kMiB);  // the render is done; RSS stays where it was
  }
  tick();  // 12 s: the heap moved, so the loop checks every 2 s again and trims
  EXPECT_EQ(checks.load(), 6) << "a trim reads the heap again after trimming";
  EXPECT_EQ(heap.trims, 1);
  trimmer.Stop();
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
int64_t RssKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

// The real allocator: 60 MiB of small blocks freed between live ones (every
// 16th block stays) cannot coalesce into the top of the heap, so they stay
// resident until the trimmer gives them back.
TEST(HeapTrimmerTest, GivesFreedHeapBetweenLiveBlocksBackToTheKernel) {
  HeapTrimmer trimmer(4 * kMiB);
  trimmer.Tick();
  std::vector<std::unique_ptr<char[]>> blocks;
  blocks.reserve(64 * 256);
  for (int i = 0; i < 64 * 256; ++i) {
    blocks.emplace_back(new char[4000]);
    std::fill_n(blocks.back().get(), 4000, static_cast<char>(i));
  }
  EXPECT_EQ(trimmer.Tick(), Outcome::kMoved) << "the heap grew";
  int64_t full = RssKib();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (i % 16 != 0) blocks[i].reset();
  }
  int64_t freed = RssKib();
  EXPECT_EQ(trimmer.Tick(), Outcome::kTrimmed);
  int64_t trimmed = RssKib();
  EXPECT_LT(trimmed, freed - 32 * 1024) << "RSS full " << full << " KiB, after free " << freed
                                        << " KiB, after trim " << trimmed << " KiB";
}
#endif

}  // namespace
}  // namespace kube
