#include <gtest/gtest.h>

#include "src/auth/PeerGroup.h"

namespace kube {
namespace {

TEST(PeerGroupTest, OneAddressInOneSpelling) {
  EXPECT_EQ(PeerGroup::Of("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(PeerGroup::Of("::ffff:10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(PeerGroup::Of("fd00:0:0::1"), PeerGroup::Of("FD00::1"));
  // Pods of one node often share a /64: each address is its own client.
  EXPECT_NE(PeerGroup::Of("fd00:1:2:3::1"), PeerGroup::Of("fd00:1:2:3::2"));
  EXPECT_EQ(PeerGroup::Of(""), "");
  EXPECT_EQ(PeerGroup::Of("not an address"), "not an address");
}

}  // namespace
}  // namespace kube
