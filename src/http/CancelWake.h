#pragma once

#include "src/http/HttpTransport.h"

namespace kube {

// An eventfd that becomes readable when `cancel` fires, for poll() to watch
// next to a socket: a cancelled request wakes at once rather than at its next
// timeout. Installs itself as the flag's hook for its lifetime.
class CancelWake {
 public:
  explicit CancelWake(CancelFlag& cancel);
  ~CancelWake();
  CancelWake(const CancelWake&) = delete;
  CancelWake& operator=(const CancelWake&) = delete;

  int fd() const { return fd_; }
  bool cancelled() const { return cancel_.cancelled(); }

 private:
  CancelFlag& cancel_;
  int fd_;
};

}  // namespace kube
