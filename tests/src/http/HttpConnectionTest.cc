#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "src/http/HttpConnection.h"
#include "tests/support/HostileTcpServer.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using Clock = HttpConnection::Clock;

HttpConnection::Target PlainTarget(int port) {
  HttpConnection::Target target;
  target.host = "127.0.0.1";
  target.port = std::to_string(port);
  return target;
}

TEST(HttpConnectionTest, ARefusedConnectionSaysSo) {
  int port = 0;
  {
    auto closed = dra::testing::HostileTcpServer::Start();
    ASSERT_TRUE(closed.ok());
    port = (*closed)->port();
  }  // stopped: nothing listens there now
  CancelFlag cancel;
  CancelWake wake(cancel);
  auto connection = HttpConnection::Open(PlainTarget(port), Clock::now() + 5s, wake);
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(connection.status().message().find("Connection refused"), std::string::npos)
      << connection.status().ToString();
}

TEST(HttpConnectionTest, ASilentServerTimesOutAtTheDeadline) {
  auto silent = dra::testing::HostileTcpServer::Start();
  ASSERT_TRUE(silent.ok());
  CancelFlag cancel;
  CancelWake wake(cancel);
  auto connection = HttpConnection::Open(PlainTarget((*silent)->port()), Clock::now() + 5s, wake);
  ASSERT_TRUE(connection.ok()) << connection.status().ToString();
  char buffer[16];
  auto start = Clock::now();
  auto read = (*connection)->Read(buffer, sizeof(buffer), Clock::now() + 200ms, wake);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kTimeout);
  EXPECT_GE(Clock::now() - start, 200ms);
}

TEST(HttpConnectionTest, ACancelEndsAWait) {
  auto silent = dra::testing::HostileTcpServer::Start();
  ASSERT_TRUE(silent.ok());
  CancelFlag cancel;
  CancelWake wake(cancel);
  auto connection = HttpConnection::Open(PlainTarget((*silent)->port()), Clock::now() + 5s, wake);
  ASSERT_TRUE(connection.ok()) << connection.status().ToString();
  cancel.Cancel();
  char buffer[16];
  auto read = (*connection)->Read(buffer, sizeof(buffer), Clock::now() + 60s, wake);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kCancelled);
}

}  // namespace
}  // namespace kube
