#pragma once

#include <cstddef>
#include <cstdint>

namespace kube {

// What Informer::AddHandler returns: the state of one handler's delivery
// (client-go's ResourceEventHandlerRegistration). Callers may ignore it.
class HandlerRegistration {
 public:
  virtual ~HandlerRegistration() = default;
  // True once the handler has been given the informer's initial contents:
  // the first full list for a handler added before it, the cached objects
  // (as adds) for one added later.
  virtual bool HasSynced() const = 0;
  // Notifications queued for the handler whose callback has not returned
  // yet (the one in progress included); 0 means the handler is up to date.
  virtual size_t pending() const = 0;
  // The most notifications ever queued at once for the handler.
  virtual size_t max_pending() const = 0;
  // Callbacks that threw (caught, logged and counted; delivery goes on).
  virtual uint64_t errors() const = 0;
};

}  // namespace kube
