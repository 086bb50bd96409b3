#include <gtest/gtest.h>

#include "src/auth/PeerGroup.h"

namespace kube {
namespace {

TEST(PeerGroupTest, Ipv4IsItselfAndIpv6IsItsSlash64) {
  EXPECT_EQ(PeerGroup::Of("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(PeerGroup::Of("::ffff:10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(PeerGroup::Of("fd00:1:2:3:aaaa::1"), PeerGroup::Of("fd00:1:2:3:bbbb::2"));
  EXPECT_NE(PeerGroup::Of("fd00:1:2:3::1"), PeerGroup::Of("fd00:1:2:4::1"));
  EXPECT_EQ(PeerGroup::Of("fd00:1:2:3::1"), "fd00:0001:0002:0003::/64");
  EXPECT_EQ(PeerGroup::Of(""), "");
  EXPECT_EQ(PeerGroup::Of("not an address"), "not an address");
}

}  // namespace
}  // namespace kube
