#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>

namespace kube {

// The connections an EndpointServer serves at once, at most `max`. When all
// slots are taken, a newcomer evicts the oldest connection that is evictable
// (it has not sent a complete request yet, or is only closing): idle and
// trickling sockets cannot keep probes out. A newcomer is refused only when
// every connection is serving a request. Thread-safe.
class EndpointConnections {
 public:
  class Connection {
   public:
    virtual ~Connection() = default;
    // Ends the connection soon, from any thread.
    virtual void Close() = 0;
    virtual bool Evictable() const = 0;
  };

  explicit EndpointConnections(std::size_t max) : max_(max) {}

  // False: no room, the caller drops the newcomer.
  bool Admit(const std::shared_ptr<Connection>& connection);

 private:
  void ForgetEndedLocked();

  const std::size_t max_;
  std::mutex mu_;
  std::list<std::weak_ptr<Connection>> connections_;  // oldest first
};

}  // namespace kube
