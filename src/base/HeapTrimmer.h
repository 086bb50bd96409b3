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
// A low-rate loop reads the bytes in use in the arenas (mallinfo2) and trims
// when they fell by at least `min_shrink` below their peak since the last
// trim, so an idle or growing heap is never walked by malloc_trim.
class HeapTrimmer {
 public:
  // What the trimmer reads and does; GlibcProbe() in production, fakes in tests.
  struct Probe {
    std::function<std::size_t()> in_use;  // bytes allocated from the arenas
    std::function<void()> trim;           // give free pages back
  };
  static Probe GlibcProbe();

  explicit HeapTrimmer(std::size_t min_shrink, Probe probe = GlibcProbe(),
                       std::shared_ptr<Clock> clock = nullptr);
  ~HeapTrimmer();
  HeapTrimmer(const HeapTrimmer&) = delete;
  HeapTrimmer& operator=(const HeapTrimmer&) = delete;

  // One check; true when it trimmed. Not thread-safe against itself: either
  // call it directly or Start() the loop.
  bool Tick();

  // Calls Tick() every `period` on a background thread until Stop().
  bool Start(Clock::Duration period);
  void Stop();

  std::uint64_t trims() const { return trims_.load(); }

 private:
  std::size_t min_shrink_;
  Probe probe_;
  std::size_t peak_ = 0;
  std::atomic<std::uint64_t> trims_{0};
  BackgroundThread thread_;
};

}  // namespace kube
