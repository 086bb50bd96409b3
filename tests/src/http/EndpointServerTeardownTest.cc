// Destroying an EndpointServer while requests wait for a handler thread: the
// sessions those requests hold must be freed while the I/O services their
// sockets, timers and strands belong to still exist. Under ASan the other
// order is a heap-use-after-free report; in a plain build it corrupts the heap.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/http/EndpointServer.h"
#include "tests/support/RawHttpClient.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using dra::testing::WaitFor;

// A handler that holds its thread until released, counting who came in.
class BlockingHandler {
 public:
  EndpointServer::Reply Serve() {
    std::unique_lock lock(mu_);
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [this] { return released_; });
    return EndpointServer::Reply{200, "done\n"};
  }
  int entered() {
    std::lock_guard lock(mu_);
    return entered_;
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool released_ = false;
};

int LocalPort(int fd) {
  sockaddr_in address{};
  socklen_t size = sizeof(address);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) return -1;
  return ntohs(address.sin_port);
}

// Bytes the server side of the loopback connection server_port <- client_port
// has received but not read yet (/proc/net/tcp), or -1 when it is not listed.
long UnreadByServer(int server_port, int client_port) {
  std::ifstream table("/proc/net/tcp");
  std::string line;
  std::getline(table, line);  // header
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state, queues;
    fields >> slot >> local >> remote >> state >> queues;
    auto port_of = [](const std::string& endpoint) {
      return std::stoi(endpoint.substr(endpoint.find(':') + 1), nullptr, 16);
    };
    if (port_of(local) != server_port || port_of(remote) != client_port) continue;
    return std::stol(queues.substr(queues.find(':') + 1), nullptr, 16);
  }
  return -1;
}

int ThreadsInProcess() {
  auto tasks = std::filesystem::directory_iterator("/proc/self/task");
  return static_cast<int>(std::distance(tasks, std::filesystem::directory_iterator{}));
}

// Sends one complete request on a new connection; the socket stays open.
int SendRequest(int port) {
  int fd = dra::testing::RawHttpClient::Connect(port);
  if (fd < 0) return -1;
  const std::string request = "GET /block HTTP/1.1\r\nHost: x\r\n\r\n";
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    close(fd);
    return -1;
  }
  return fd;
}

// Both handler threads are held, and two more requests are read and queued
// behind them. The server is destroyed on another thread; the held handlers
// are released only once its I/O threads are gone, so the queued requests are
// still queued when the handler pool stops and are dropped with it.
TEST(EndpointServerTeardownTest, QueuedRequestsAreDroppedSafelyWhenTheServerIsDestroyed) {
  BlockingHandler handler;
  auto started =
      EndpointServer::Start("127.0.0.1:0", {{"/block", [&handler] { return handler.Serve(); }}});
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  std::unique_ptr<EndpointServer> server = std::move(*started);
  const int port = server->port();
  std::vector<int> clients;
  for (int i = 0; i < 2; ++i) clients.push_back(SendRequest(port));
  ASSERT_TRUE(WaitFor("both handler threads held", dra::testing::TestTime::Scaled(5s), [&] {
                return handler.entered() == 2;
              }).ok());
  for (int i = 0; i < 2; ++i) clients.push_back(SendRequest(port));
  for (int fd : clients) ASSERT_GE(fd, 0);
  for (std::size_t i = 2; i < clients.size(); ++i) {
    int client_port = LocalPort(clients[i]);
    ASSERT_TRUE(
        WaitFor("the server to read a queued request", dra::testing::TestTime::Scaled(5s), [&] {
          return UnreadByServer(port, client_port) == 0;
        }).ok());
  }

  const int threads_before = ThreadsInProcess();
  std::thread destroyer([&server] { server.reset(); });
  // The destroyer, and two fewer threads: the I/O threads have been joined,
  // and Stop() moves on to the handler pool, which waits for the held handlers.
  auto io_stopped = WaitFor("the server's I/O threads to end", dra::testing::TestTime::Scaled(5s),
                            [&] { return ThreadsInProcess() <= threads_before + 1 - 2; });
  handler.Release();
  destroyer.join();
  for (int fd : clients) close(fd);

  EXPECT_TRUE(io_stopped.ok()) << io_stopped.ToString();
  EXPECT_EQ(handler.entered(), 2) << "a request queued at Stop() was still handled";
}

}  // namespace
}  // namespace kube
