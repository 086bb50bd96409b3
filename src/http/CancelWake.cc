#include "src/http/CancelWake.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace kube {

CancelWake::CancelWake(CancelFlag& cancel)
    : cancel_(cancel), fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  cancel_.SetHook([fd = fd_] {
    uint64_t one = 1;
    if (fd >= 0) (void)!write(fd, &one, sizeof(one));
  });
  // A cancel that came before the hook was installed called no hook.
  if (cancel_.cancelled() && fd_ >= 0) {
    uint64_t one = 1;
    (void)!write(fd_, &one, sizeof(one));
  }
}

CancelWake::~CancelWake() {
  cancel_.SetHook(nullptr);  // before the fd goes: the hook runs under the flag's lock
  if (fd_ >= 0) close(fd_);
}

}  // namespace kube
