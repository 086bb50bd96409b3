#include "src/cache/ReflectorOptions.h"

#include <algorithm>

namespace kube {

BackoffOptions ReflectorOptions::backoff() const {
  BackoffOptions backoff;
  backoff.initial = initial_backoff;
  backoff.max = max_backoff;
  return backoff;
}

Clock::Duration ReflectorOptions::stall_timeout() const {
  Clock::Duration quiet_watch =
      std::max<Clock::Duration>(kBookmarkedWatchIdleTimeout, watch_progress_timeout);
  return quiet_watch + 2 * max_backoff + stall_margin;
}

PagedLister::Options ReflectorOptions::lister() const {
  PagedLister::Options lister;
  lister.page_size = page_size;
  lister.label_selector = label_selector;
  lister.field_selector = field_selector;
  lister.budget = list_budget;
  return lister;
}

}  // namespace kube
