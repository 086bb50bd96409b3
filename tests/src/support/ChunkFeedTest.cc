#include <gtest/gtest.h>
#include <poll.h>

#include <string>
#include <vector>

#include "tests/support/ChunkFeed.h"

namespace dra::testing {
namespace {

bool Readable(const ChunkFeed& feed) {
  pollfd fds{feed.fd(), POLLIN, 0};
  return ::poll(&fds, 1, 0) == 1;
}

TEST(ChunkFeedTest, TakeReturnsWhatWasPushedInOrderAndClearsTheWakeUp) {
  ChunkFeed feed;
  EXPECT_FALSE(Readable(feed));
  feed.Push("a");
  feed.Push("b");
  EXPECT_TRUE(Readable(feed));
  EXPECT_EQ(feed.Take(), (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(Readable(feed));
  EXPECT_TRUE(feed.Take().empty());
}

TEST(ChunkFeedTest, UnshiftPutsUnsentChunksBeforeLaterOnes) {
  ChunkFeed feed;
  feed.Push("a");
  feed.Push("b");
  auto taken = feed.Take();
  feed.Push("c");
  feed.Unshift({taken.begin() + 1, taken.end()});  // "a" was written, "b" was not
  EXPECT_TRUE(Readable(feed));
  EXPECT_EQ(feed.Take(), (std::vector<std::string>{"b", "c"}));
}

}  // namespace
}  // namespace dra::testing
