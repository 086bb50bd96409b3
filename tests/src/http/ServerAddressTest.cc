#include <gtest/gtest.h>

#include "src/http/ServerAddress.h"

namespace kube {
namespace {

TEST(ServerAddressTest, SplitsSchemeHostPortAndPrefix) {
  ServerAddress address = ServerAddress::Parse("https://10.0.0.1:6443/clusters/a/");
  EXPECT_TRUE(address.https);
  EXPECT_EQ(address.authority, "10.0.0.1:6443");
  EXPECT_EQ(address.host, "10.0.0.1");
  EXPECT_EQ(address.port, "6443");
  EXPECT_EQ(address.prefix, "/clusters/a");
}

TEST(ServerAddressTest, DefaultsThePortByScheme) {
  EXPECT_EQ(ServerAddress::Parse("https://api.example.com").port, "443");
  EXPECT_EQ(ServerAddress::Parse("http://api.example.com").port, "80");
  EXPECT_FALSE(ServerAddress::Parse("http://api.example.com").https);
  EXPECT_EQ(ServerAddress::Parse("https://api.example.com").authority, "api.example.com");
}

TEST(ServerAddressTest, StripsIpv6BracketsFromTheHostOnly) {
  ServerAddress with_port = ServerAddress::Parse("https://[fd00::1]:6443");
  EXPECT_EQ(with_port.host, "fd00::1");
  EXPECT_EQ(with_port.port, "6443");
  EXPECT_EQ(with_port.authority, "[fd00::1]:6443");
  EXPECT_EQ(with_port.UrlHost(), "[fd00::1]");
  ServerAddress without_port = ServerAddress::Parse("https://[fd00::1]");
  EXPECT_EQ(without_port.host, "fd00::1");
  EXPECT_EQ(without_port.port, "443");
  EXPECT_EQ(ServerAddress::Parse("https://10.0.0.1").UrlHost(), "10.0.0.1");
}

TEST(ServerAddressTest, ARootPathIsNoPrefix) {
  EXPECT_EQ(ServerAddress::Parse("https://h:1/").prefix, "");
  EXPECT_EQ(ServerAddress::Parse("https://h:1").prefix, "");
  EXPECT_EQ(ServerAddress::Parse("https://h:1//").prefix, "");
}

}  // namespace
}  // namespace kube
