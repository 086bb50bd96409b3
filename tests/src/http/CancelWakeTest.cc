#include <gtest/gtest.h>
#include <poll.h>

#include "src/http/CancelWake.h"

namespace kube {
namespace {

bool Readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

TEST(CancelWakeTest, BecomesReadableWhenTheFlagFires) {
  CancelFlag cancel;
  CancelWake wake(cancel);
  ASSERT_GE(wake.fd(), 0);
  EXPECT_FALSE(Readable(wake.fd()));
  cancel.Cancel();
  EXPECT_TRUE(Readable(wake.fd()));
  EXPECT_TRUE(wake.cancelled());
}

TEST(CancelWakeTest, ACancelBeforehandIsSeenAtOnce) {
  CancelFlag cancel;
  cancel.Cancel();
  CancelWake wake(cancel);
  EXPECT_TRUE(Readable(wake.fd()));
}

TEST(CancelWakeTest, LeavesNoHookBehind) {
  CancelFlag cancel;
  { CancelWake wake(cancel); }
  cancel.Cancel();  // would write to a closed (or reused) descriptor if the hook stayed
  EXPECT_TRUE(cancel.cancelled());
}

}  // namespace
}  // namespace kube
