#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "src/base/FakeClock.h"
#include "src/base/HeapTrimmer.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using std::chrono::seconds;
constexpr std::size_t kMiB = 1 << 20;

// A heap whose size the test sets, and the trims it was asked for.
struct FakeHeap {
  std::size_t in_use = 0;
  int trims = 0;
  HeapTrimmer::Probe probe() {
    return {.in_use = [this] { return in_use; }, .trim = [this] { ++trims; }};
  }
};

TEST(HeapTrimmerTest, NeverTrimsAGrowingHeapOrOneThatShrankLessThanTheMinimum) {
  FakeHeap heap;
  HeapTrimmer trimmer(4 * kMiB, heap.probe());
  for (std::size_t mib : {10, 50, 100, 97, 120, 117}) {
    heap.in_use = mib * kMiB;
    EXPECT_FALSE(trimmer.Tick()) << mib << " MiB in use";
  }
  EXPECT_EQ(heap.trims, 0);
}

TEST(HeapTrimmerTest, TrimsOnceWhenTheHeapFellBelowItsPeakThenOnlyAfterTheNextPeak) {
  FakeHeap heap;
  HeapTrimmer trimmer(4 * kMiB, heap.probe());
  heap.in_use = 100 * kMiB;  // the initial sync decodes its lists
  EXPECT_FALSE(trimmer.Tick());
  heap.in_use = 60 * kMiB;  // ... and frees them once cached
  EXPECT_TRUE(trimmer.Tick());
  EXPECT_FALSE(trimmer.Tick()) << "nothing new was freed since the trim";
  heap.in_use = 57 * kMiB;
  EXPECT_FALSE(trimmer.Tick()) << "3 MiB below the trimmed level is under the minimum";
  heap.in_use = 80 * kMiB;  // a burst of objects
  EXPECT_FALSE(trimmer.Tick());
  heap.in_use = 70 * kMiB;  // deleted again
  EXPECT_TRUE(trimmer.Tick());
  EXPECT_EQ(heap.trims, 2);
  EXPECT_EQ(trimmer.trims(), 2u);
}

TEST(HeapTrimmerTest, TheLoopChecksOncePerPeriodAndStopsAtOnce) {
  FakeHeap heap;
  std::atomic<int> checks{0};
  auto probe = heap.probe();
  auto counted = HeapTrimmer::Probe{.in_use =
                                        [&] {
                                          ++checks;
                                          return heap.in_use;
                                        },
                                    .trim = probe.trim};
  auto clock = std::make_shared<FakeClock>();
  HeapTrimmer trimmer(4 * kMiB, counted, clock);
  ASSERT_TRUE(trimmer.Start(seconds(2)));
  ASSERT_TRUE(dra::testing::WaitFor("the loop sleeps", seconds(10), [&] {
                return clock->NumWaiters() > 0;
              }).ok());
  EXPECT_EQ(checks.load(), 0) << "no check before the first period";
  clock->Step(seconds(2));
  EXPECT_TRUE(
      dra::testing::WaitFor("one check", seconds(10), [&] { return checks.load() == 1; }).ok())
      << checks.load();
  trimmer.Stop();
  EXPECT_EQ(checks.load(), 1);
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
  EXPECT_FALSE(trimmer.Tick());
  std::vector<std::unique_ptr<char[]>> blocks;
  blocks.reserve(64 * 256);
  for (int i = 0; i < 64 * 256; ++i) {
    blocks.emplace_back(new char[4000]);
    std::fill_n(blocks.back().get(), 4000, static_cast<char>(i));
  }
  EXPECT_FALSE(trimmer.Tick()) << "the heap grew";
  int64_t full = RssKib();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (i % 16 != 0) blocks[i].reset();
  }
  int64_t freed = RssKib();
  EXPECT_TRUE(trimmer.Tick());
  int64_t trimmed = RssKib();
  EXPECT_LT(trimmed, freed - 32 * 1024) << "RSS full " << full << " KiB, after free " << freed
                                        << " KiB, after trim " << trimmed << " KiB";
}
#endif

}  // namespace
}  // namespace kube
