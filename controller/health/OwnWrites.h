#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "src/base/Clock.h"

namespace dra::health {

// The versions a reconcile of a DeviceHealth wrote over, so that the next
// reconcile of the same key can tell that the informer caches do not show
// those writes yet. Reconciling such a stale view decides the same transition
// again: a second Event, a second status patch and rule write, each an API
// round trip, and more reconciles. The watch delivers the writes a few
// milliseconds later and queues the key again; until then the reconcile waits.
class OwnWrites {
 public:
  // What one reconcile wrote: the DeviceHealth's status over `health_rv`,
  // and/or its rule over `rule_rv` ("" when it created the rule).
  struct Write {
    std::optional<std::string> health_rv;
    std::optional<std::string> rule_rv;
  };

  explicit OwnWrites(kube::Clock::Duration patience) : patience_(patience) {}

  void Record(const std::string& key, Write write, kube::Clock::TimePoint now);
  // How long to wait when the caches still show, for `key`, the health
  // version `health_rv` or the rule version `rule_rv` ("" for no rule) that
  // the last write went over; nothing once they moved on or after the
  // patience ran out (a write the server found unchanged makes no event).
  std::optional<kube::Clock::Duration> Wait(const std::string& key, const std::string& health_rv,
                                            const std::string& rule_rv, kube::Clock::TimePoint now);
  void Forget(const std::string& key);

 private:
  struct Entry {
    Write write;
    kube::Clock::TimePoint until;
  };

  kube::Clock::Duration patience_;
  std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace dra::health
