#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "src/base/Backoff.h"
#include "src/base/Clock.h"
#include "src/cache/LineSplitter.h"
#include "src/cache/ListerWatcher.h"
#include "src/cache/PagedLister.h"
#include "src/cache/WatchListMode.h"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace kube {

class ListMemoryBudget;

struct ReflectorOptions {
  int64_t page_size = 500;
  std::string label_selector;
  std::string field_selector;
  // client-go's reflector backoff: 0.8 s -> 30 s, factor 2, jitter 1.0, reset
  // after two quiet minutes.
  std::chrono::milliseconds initial_backoff{800};
  std::chrono::milliseconds max_backoff{30000};
  // Each watch asks the server to end it after a random time in [min, 2*min).
  std::chrono::seconds min_watch_timeout{300};
  // A watch still open this long past the timeoutSeconds it asked for is cut
  // (and resumed): the server should have ended it.
  std::chrono::milliseconds watch_timeout_margin{30000};
  // Progress of a watch is complete events and bookmarks, not bytes. One
  // that delivers none for this long is cut; when it was delivering bytes
  // meanwhile (an event that never completes) the reflector relists.
  // kube-apiserver bookmarks every minute: three missed bookmarks.
  std::chrono::milliseconds watch_progress_timeout{kBookmarkedWatchIdleTimeout};
  // CheckWatchProgress() fails for an open watch without progress for this
  // long (two missed bookmarks), so readiness reports a cache falling behind
  // before the watch is cut.
  std::chrono::milliseconds watch_ready_timeout{2 * kWatchBookmarkInterval};
  // Shared by the reflectors of one process: at most this many bytes of
  // LIST pages in flight at once (null: no limit). See ListMemoryBudget.
  std::shared_ptr<ListMemoryBudget> list_budget;
  // Longer watch lines or protobuf frames are skipped (and counted as decode
  // errors).
  size_t max_watch_line_bytes = LineSplitter::kDefaultMaxLine;
  // How much longer than its longest legitimate quiet spell the loop may go
  // without a heartbeat before CheckProgress() calls it stalled.
  std::chrono::seconds stall_margin{60};
  std::shared_ptr<Clock> clock;  // null: the real clock
  // How full syncs are made: a streamed watch-list where the server serves
  // it (auto), always (on), or a paged LIST (off).
  WatchListMode watch_list = WatchListMode::kAuto;
  // A watch-list silent this long before its initial-events-end bookmark is
  // taken for a server that ignores sendInitialEvents (real time).
  std::chrono::milliseconds initial_events_idle_timeout{10000};
  // After a fallback to LIST (auto), how long before watch-list is tried again.
  std::chrono::seconds watch_list_retry_after{600};
  // Registers reflector_decode_errors_total{resource} and
  // reflector_syncs_total{resource,method} here when set.
  std::shared_ptr<prometheus::Registry> metrics;

  BackoffOptions backoff() const;
  // The longest the loop may go without a heartbeat while working: a watch
  // silent until its bookmark idle timeout cuts it, then a jittered maximal
  // backoff (up to 2 x max_backoff), plus stall_margin.
  Clock::Duration stall_timeout() const;
  PagedLister::Options lister() const;
};

}  // namespace kube
