#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "src/base/BackgroundThread.h"
#include "src/base/Clock.h"

namespace kube {

// Gives freed heap back to the kernel. glibc returns memory only from the top
// of an arena; pages freed below a live chunk stay resident until
// malloc_trim(0). A controller frees most of what its initial LISTs and
// watch-lists decoded once its caches hold the projections, and again after
// a burst of changes: each leaves tens of MiB resident that the heap does not
// use.
//
// A low-rate loop compares the process's resident bytes (/proc/self/statm)
// with the bytes the allocator has handed out (mallinfo2: arenas and mmapped
// chunks). Their difference, the slack, is code, stacks and free heap that is
// still resident; the loop trims when the slack grew by `min_shrink` over its
// lowest value since the last trim (or since the loop's first check, made at
// Start() before the process has loaded anything), so an idle or growing heap is never
// walked by malloc_trim, and memory freed again after a trim (a transient
// that reused the same chunks) is caught too. mallinfo2 itself walks every
// free chunk (milliseconds on a fragmented 100 MiB heap), so the loop checks
// every `min_period` only while the heap moves and backs off to `max_period`
// while it does not. Between those checks it reads only the resident size,
// which costs next to nothing: once that moved by `min_shrink` (a transient
// such as a metrics render faulting pages in, which a free will follow), it
// checks at once and the back-off starts again.
class HeapTrimmer {
 public:
  // What the trimmer reads and does; GlibcProbe() in production, fakes in tests.
  struct Probe {
    struct Reading {
      std::size_t in_use = 0;    // bytes handed out by the allocator
      std::size_t resident = 0;  // the process's resident bytes
    };
    std::function<Reading()> read;
    std::function<void()> trim;  // give free pages back
    // The resident bytes alone, cheaply; null: the loop waits out its back-off.
    std::function<std::size_t()> resident;
  };
  static Probe GlibcProbe();

  // A trim also needs the slack to have grown by `heap_share` of the bytes in
  // use: on a large heap a transient (a metrics render) would otherwise be
  // trimmed and faulted back in again on every cycle.
  explicit HeapTrimmer(std::size_t min_shrink, Probe probe = GlibcProbe(),
                       std::shared_ptr<Clock> clock = nullptr, double heap_share = 0.0);
  ~HeapTrimmer();
  HeapTrimmer(const HeapTrimmer&) = delete;
  HeapTrimmer& operator=(const HeapTrimmer&) = delete;

  enum class Outcome {
    kSteady,   // in use and slack within min_shrink of the last check
    kMoved,    // either moved by min_shrink or more; the slack did not grow that much
    kTrimmed,  // the slack grew by min_shrink or more since the last trim: trimmed
  };
  // One check. Not thread-safe against itself: either call it directly or
  // Start() the loop.
  Outcome Tick();

  // Calls Tick() on a background thread until Stop(): once at once (start
  // the loop before the process loads anything), then `min_period` after a
  // check that found the heap moving, twice the last period (at most
  // `max_period`) after a steady one, and sooner when the resident size
  // moves (read every `min_period`).
  bool Start(Clock::Duration min_period, Clock::Duration max_period);
  void Stop();

  std::uint64_t trims() const { return trims_.load(); }

 private:
  // The resident size moved by min_shrink_ since the last check (cheap_probe only).
  bool ResidentMoved() const;

  std::size_t min_shrink_;
  double heap_share_;
  Probe probe_;
  std::size_t last_in_use_ = 0;
  std::size_t last_slack_ = 0;
  std::size_t last_resident_ = 0;
  std::size_t low_slack_ = SIZE_MAX;
  std::atomic<std::uint64_t> trims_{0};
  BackgroundThread thread_;
};

}  // namespace kube
