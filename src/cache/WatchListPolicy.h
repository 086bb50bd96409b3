#pragma once

#include "src/base/Clock.h"
#include "src/base/Status.h"
#include "src/cache/WatchListMode.h"

namespace kube {

// Decides, for each full sync of one reflector, whether to stream it with a
// watch-list or to page through a LIST. In auto mode a server that does not
// serve watch-list (it refuses the parameters, or never sends the
// initial-events-end bookmark) is listed instead, and not asked again until
// `retry_after` has passed: a relist after 410 Gone must not first wait out
// another failed watch-list.
class WatchListPolicy {
 public:
  WatchListPolicy(WatchListMode mode, Clock::Duration retry_after);

  // `supported`: whether the lister-watcher can stream a watch-list at all.
  bool ShouldTry(bool supported, Clock::TimePoint now) const;
  // Whether a watch-list that ended this way should be replaced by a LIST now;
  // `no_bookmark`: the stream ended or went quiet before its bookmark.
  bool ShouldFallBack(const Status& status, bool no_bookmark) const;
  // Remembers a fallback made at `now`.
  void FellBack(Clock::TimePoint now);

  WatchListMode mode() const { return mode_; }
  Clock::Duration retry_after() const { return retry_after_; }

  // 400 BadRequest or 422 Invalid: the server does not take sendInitialEvents
  // or resourceVersionMatch on a watch (kube-apiserver with the WatchList
  // feature gate off answers 422).
  static bool RefusesParameters(const Status& status);

 private:
  WatchListMode mode_;
  Clock::Duration retry_after_;
  bool fell_back_ = false;
  Clock::TimePoint fell_back_at_{};
};

}  // namespace kube
