#include <gtest/gtest.h>

#include "tests/chaos/LeaderTerm.h"

namespace dra::testing {
namespace {

TEST(LeaderTermTest, FromBecomingLeaderToTheLastLine) {
  std::string log =
      "2026-12-01T03:02:19.001Z info leader election: a campaigning for lease default/x\n"
      "2026-12-01T03:02:20.409Z info leader election: a became leader of default/x\n"
      "2026-12-01T03:02:31.900Z error leader election lost; exiting\n"
      "a line without a time\n";
  auto term = LeaderTerm::FromLog(log);
  ASSERT_TRUE(term.has_value());
  EXPECT_EQ(term->from, "2026-12-01T03:02:20");
  EXPECT_EQ(term->to, "2026-12-01T03:02:31");
  EXPECT_TRUE(term->Contains(LeaderTerm::Second("2026-12-01T03:02:25Z")));
  EXPECT_FALSE(term->Contains(LeaderTerm::Second("2026-12-01T03:02:32Z")));
  // The second the next leader may start in is not attributed to this term.
  EXPECT_FALSE(term->StrictlyInside(LeaderTerm::Second("2026-12-01T03:02:31Z")));
  EXPECT_TRUE(term->StrictlyInside(LeaderTerm::Second("2026-12-01T03:02:30Z")));
}

TEST(LeaderTermTest, AStandbyHasNoTerm) {
  EXPECT_FALSE(LeaderTerm::FromLog("2026-12-01T03:02:19.001Z info campaigning\n").has_value());
}

}  // namespace
}  // namespace dra::testing
