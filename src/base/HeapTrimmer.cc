#include "src/base/HeapTrimmer.h"

#include <malloc.h>

#include <algorithm>
#include <utility>

namespace kube {

HeapTrimmer::Probe HeapTrimmer::GlibcProbe() {
  return Probe{
      .read =
          [] {
            struct mallinfo2 info = mallinfo2();
            return Probe::Reading{.in_use = info.uordblks, .free = info.fordblks};
          },
      .trim = [] { malloc_trim(0); },
  };
}

HeapTrimmer::HeapTrimmer(std::size_t min_shrink, Probe probe, std::shared_ptr<Clock> clock)
    : min_shrink_(min_shrink), probe_(std::move(probe)), thread_(std::move(clock)) {}

HeapTrimmer::~HeapTrimmer() { Stop(); }

HeapTrimmer::Outcome HeapTrimmer::Tick() {
  auto [in_use, free] = probe_.read();
  std::size_t moved = in_use > last_in_use_ ? in_use - last_in_use_ : last_in_use_ - in_use;
  last_in_use_ = in_use;
  peak_in_use_ = std::max(peak_in_use_, in_use);
  low_free_ = std::min(low_free_, free);
  if (peak_in_use_ - in_use >= min_shrink_ || free - low_free_ >= min_shrink_) {
    probe_.trim();
    peak_in_use_ = in_use;
    low_free_ = free;
    trims_.fetch_add(1);
    return Outcome::kTrimmed;
  }
  return moved >= min_shrink_ ? Outcome::kMoved : Outcome::kSteady;
}

bool HeapTrimmer::Start(Clock::Duration min_period, Clock::Duration max_period) {
  return thread_.Start([this, min_period, max_period] {
    Clock::Duration period = min_period;
    while (thread_.SleepFor(period)) {
      period = Tick() == Outcome::kSteady ? std::min(period * 2, max_period) : min_period;
    }
  });
}

void HeapTrimmer::Stop() { thread_.Stop(); }

}  // namespace kube
