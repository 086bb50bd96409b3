#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "src/base/BackgroundThread.h"
#include "src/base/Clock.h"

namespace kube {

// Gives freed heap back to the kernel after the heap shrank. glibc returns
// memory only from the top of an arena (above M_TRIM_THRESHOLD); pages freed
// below a live chunk stay resident until malloc_trim(0). A controller frees
// most of what its initial LISTs and watch-lists decoded once its caches hold
// the projections, and again after a burst of objects is deleted: both leave
// tens of MiB resident that no allocation will reuse soon.
//
// A low-rate loop reads the arenas' bytes in use and free (mallinfo2) and
// trims when, since the last trim, the bytes in use fell `min_shrink` below
// their peak or the free bytes rose `min_shrink` above their low (which also
// catches a peak that came and went between two checks), so an idle or
// growing heap is never walked by malloc_trim. mallinfo2
// itself walks every free chunk (milliseconds on a fragmented 100 MiB heap),
// so the loop checks every `min_period` only while the heap moves and backs
// off to `max_period` while it does not.
class HeapTrimmer {
 public:
  // What the trimmer reads and does; GlibcProbe() in production, fakes in tests.
  struct Probe {
    struct Reading {
      std::size_t in_use = 0;  // bytes allocated from the arenas
      std::size_t free = 0;    // bytes free in the arenas, resident or not
    };
    std::function<Reading()> read;
    std::function<void()> trim;  // give free pages back
  };
  static Probe GlibcProbe();

  explicit HeapTrimmer(std::size_t min_shrink, Probe probe = GlibcProbe(),
                       std::shared_ptr<Clock> clock = nullptr);
  ~HeapTrimmer();
  HeapTrimmer(const HeapTrimmer&) = delete;
  HeapTrimmer& operator=(const HeapTrimmer&) = delete;

  enum class Outcome {
    kSteady,   // in use within min_shrink of the last check: nothing to do
    kMoved,    // grew or shrank by min_shrink or more, not below the peak by that
    kTrimmed,  // shrank by min_shrink or more since the last trim: trimmed
  };
  // One check. Not thread-safe against itself: either call it directly or
  // Start() the loop.
  Outcome Tick();

  // Calls Tick() on a background thread until Stop(): `min_period` after a
  // check that found the heap moving, twice the last period (at most
  // `max_period`) after a steady one.
  bool Start(Clock::Duration min_period, Clock::Duration max_period);
  void Stop();

  std::uint64_t trims() const { return trims_.load(); }

 private:
  std::size_t min_shrink_;
  Probe probe_;
  std::size_t peak_in_use_ = 0;
  std::size_t last_in_use_ = 0;
  std::size_t low_free_ = SIZE_MAX;
  std::atomic<std::uint64_t> trims_{0};
  BackgroundThread thread_;
};

}  // namespace kube
