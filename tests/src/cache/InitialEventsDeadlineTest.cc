#include <gtest/gtest.h>

#include "src/cache/InitialEventsDeadline.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using namespace std::chrono_literals;

TEST(InitialEventsDeadlineTest, CancelsTheStreamAfterTheQuietSpell) {
  CancelFlag stream;
  InitialEventsDeadline deadline(50ms, stream);
  ASSERT_TRUE(dra::testing::WaitFor("the deadline", 5s, [&] { return stream.cancelled(); }).ok());
  EXPECT_TRUE(deadline.fired());
}

TEST(InitialEventsDeadlineTest, DataKeepsItFromFiring) {
  CancelFlag stream;
  InitialEventsDeadline deadline(1000ms, stream);
  auto until = std::chrono::steady_clock::now() + 1500ms;
  while (std::chrono::steady_clock::now() < until) {
    deadline.Touch();
    std::this_thread::sleep_for(20ms);  // the data's pace, not a wait for a result
  }
  EXPECT_FALSE(stream.cancelled());
  ASSERT_TRUE(dra::testing::WaitFor("the deadline", 5s, [&] { return stream.cancelled(); }).ok());
}

TEST(InitialEventsDeadlineTest, DisarmedNeverFires) {
  CancelFlag stream;
  {
    InitialEventsDeadline deadline(30ms, stream);
    deadline.Disarm();
    std::this_thread::sleep_for(100ms);  // past the deadline: proves the negative
    EXPECT_FALSE(deadline.fired());
  }
  EXPECT_FALSE(stream.cancelled());
}

}  // namespace
}  // namespace kube
