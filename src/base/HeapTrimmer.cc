#include "src/base/HeapTrimmer.h"

#include <malloc.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace kube {
namespace {

std::size_t ResidentBytes() {
  long pages = 0, resident = 0;
  if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(statm);
  }
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t Distance(std::size_t a, std::size_t b) { return a > b ? a - b : b - a; }

}  // namespace

HeapTrimmer::Probe HeapTrimmer::GlibcProbe() {
  return Probe{
      .read =
          [] {
            struct mallinfo2 info = mallinfo2();
            return Probe::Reading{.in_use = info.uordblks + info.hblkhd,
                                  .resident = ResidentBytes()};
          },
      .trim = [] { malloc_trim(0); },
      .resident = ResidentBytes,
  };
}

HeapTrimmer::HeapTrimmer(std::size_t min_shrink, Probe probe, std::shared_ptr<Clock> clock,
                         double heap_share)
    : min_shrink_(min_shrink),
      heap_share_(heap_share),
      probe_(std::move(probe)),
      thread_(std::move(clock)) {}

HeapTrimmer::~HeapTrimmer() { Stop(); }

HeapTrimmer::Outcome HeapTrimmer::Tick() {
  auto [in_use, resident] = probe_.read();
  std::size_t slack = resident > in_use ? resident - in_use : 0;
  bool moved =
      Distance(in_use, last_in_use_) >= min_shrink_ || Distance(slack, last_slack_) >= min_shrink_;
  last_in_use_ = in_use;
  last_slack_ = slack;
  last_resident_ = resident;
  low_slack_ = std::min(low_slack_, slack);
  auto worth =
      std::max(min_shrink_, static_cast<std::size_t>(static_cast<double>(in_use) * heap_share_));
  if (slack - low_slack_ < worth) return moved ? Outcome::kMoved : Outcome::kSteady;
  probe_.trim();
  auto after = probe_.read();
  low_slack_ = after.resident > after.in_use ? after.resident - after.in_use : 0;
  last_slack_ = low_slack_;
  last_resident_ = after.resident;
  trims_.fetch_add(1);
  spdlog::debug("heap trimmed: {} KiB in use; resident {} -> {} KiB", in_use >> 10, resident >> 10,
                after.resident >> 10);
  return Outcome::kTrimmed;
}

bool HeapTrimmer::Start(Clock::Duration min_period, Clock::Duration max_period) {
  return thread_.Start([this, min_period, max_period] {
    // A check at once: the slack of a process that has not yet loaded
    // anything is the floor later slack is measured against. Without it the
    // first check, after the initial sync, would take what that sync left
    // behind for the floor, and never give it back.
    Tick();
    const bool cheap_probe = static_cast<bool>(probe_.resident);
    Clock::Duration period = min_period;  // until the next full check
    Clock::Duration waited{0};
    while (thread_.SleepFor(cheap_probe ? min_period : period)) {
      waited += cheap_probe ? min_period : period;
      if (waited < period && !ResidentMoved()) continue;
      waited = Clock::Duration{0};
      period = Tick() == Outcome::kSteady ? std::min(period * 2, max_period) : min_period;
    }
  });
}

bool HeapTrimmer::ResidentMoved() const {
  return Distance(probe_.resident(), last_resident_) >= min_shrink_;
}

void HeapTrimmer::Stop() { thread_.Stop(); }

}  // namespace kube
