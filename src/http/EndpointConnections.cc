#include "src/http/EndpointConnections.h"

namespace kube {

bool EndpointConnections::Admit(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mu_);
  ForgetEndedLocked();
  if (connections_.size() >= max_) {
    auto victim = connections_.end();
    for (auto it = connections_.begin(); it != connections_.end(); ++it) {
      auto live = it->lock();
      if (live && live->Evictable()) {
        live->Close();
        victim = it;
        break;
      }
    }
    if (victim == connections_.end()) return false;
    connections_.erase(victim);
  }
  connections_.push_back(connection);
  return true;
}

void EndpointConnections::ForgetEndedLocked() {
  connections_.remove_if([](const std::weak_ptr<Connection>& c) { return c.expired(); });
}

}  // namespace kube
