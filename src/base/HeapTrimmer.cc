#include "src/base/HeapTrimmer.h"

#include <malloc.h>

#include <algorithm>
#include <utility>

namespace kube {

HeapTrimmer::Probe HeapTrimmer::GlibcProbe() {
  return Probe{
      .in_use = [] { return static_cast<std::size_t>(mallinfo2().uordblks); },
      .trim = [] { malloc_trim(0); },
  };
}

HeapTrimmer::HeapTrimmer(std::size_t min_shrink, Probe probe, std::shared_ptr<Clock> clock)
    : min_shrink_(min_shrink), probe_(std::move(probe)), thread_(std::move(clock)) {}

HeapTrimmer::~HeapTrimmer() { Stop(); }

bool HeapTrimmer::Tick() {
  std::size_t in_use = probe_.in_use();
  peak_ = std::max(peak_, in_use);
  if (peak_ - in_use < min_shrink_) return false;
  probe_.trim();
  peak_ = in_use;
  trims_.fetch_add(1);
  return true;
}

bool HeapTrimmer::Start(Clock::Duration period) {
  return thread_.Start([this, period] {
    while (thread_.SleepFor(period)) Tick();
  });
}

void HeapTrimmer::Stop() { thread_.Stop(); }

}  // namespace kube
