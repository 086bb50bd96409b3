#include <gtest/gtest.h>

#include "src/http/EndpointBacklog.h"

namespace kube {
namespace {

TEST(EndpointBacklogTest, AtMostMaxPiecesUntilOneLeaves) {
  EndpointBacklog backlog(2);
  EXPECT_TRUE(backlog.TryEnter());
  EXPECT_TRUE(backlog.TryEnter());
  EXPECT_FALSE(backlog.TryEnter());
  EXPECT_EQ(backlog.size(), 2u);
  backlog.Leave();
  EXPECT_TRUE(backlog.TryEnter());
  EXPECT_FALSE(backlog.TryEnter());
}

}  // namespace
}  // namespace kube
