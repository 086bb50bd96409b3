#include "tests/support/SlowTcpProxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dra::testing {
namespace {

sockaddr_in Loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  return addr;
}

bool SendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

kube::Result<std::unique_ptr<SlowTcpProxy>> SlowTcpProxy::Start(int upstream_port,
                                                                std::chrono::milliseconds delay) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return kube::Status(kube::StatusCode::kInternal, std::strerror(errno));
  sockaddr_in addr = Loopback(0);
  socklen_t len = sizeof(addr);
  int pipe_fds[2];
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 64) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
      pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    std::string error = std::strerror(errno);
    close(fd);
    return kube::Status(kube::StatusCode::kInternal, "SlowTcpProxy: " + error);
  }
  std::unique_ptr<SlowTcpProxy> proxy(
      new SlowTcpProxy(fd, pipe_fds[0], pipe_fds[1], ntohs(addr.sin_port), upstream_port, delay));
  proxy->accept_thread_ = std::thread([p = proxy.get()] { p->AcceptLoop(); });
  return proxy;
}

SlowTcpProxy::SlowTcpProxy(int listen_fd, int wake_read, int wake_write, int port,
                           int upstream_port, std::chrono::milliseconds delay)
    : listen_fd_(listen_fd),
      wake_read_(wake_read),
      wake_write_(wake_write),
      port_(port),
      upstream_port_(upstream_port),
      delay_(delay) {}

SlowTcpProxy::~SlowTcpProxy() {
  Stop();
  close(wake_read_);
  close(wake_write_);
}

void SlowTcpProxy::Stop() {
  if (stopping_.exchange(true)) return;
  (void)!write(wake_write_, "x", 1);  // the pipe stays readable: wakes every poll
  accept_thread_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    for (int fd : open_fds_) shutdown(fd, SHUT_RDWR);  // unblocks a send in progress
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
  close(listen_fd_);
}

void SlowTcpProxy::Track(int fd, bool open) {
  std::lock_guard lock(mu_);
  if (open) {
    open_fds_.insert(fd);
  } else {
    open_fds_.erase(fd);
    close(fd);
  }
}

bool SlowTcpProxy::Wait(std::chrono::milliseconds how_long) const {
  pollfd wake{wake_read_, POLLIN, 0};
  return poll(&wake, 1, static_cast<int>(how_long.count())) == 0;
}

void SlowTcpProxy::AcceptLoop() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ++accepted_;
    Track(fd, true);
    std::lock_guard lock(mu_);
    threads_.emplace_back([this, fd] { Forward(fd); });
  }
}

void SlowTcpProxy::Forward(int client) {
  int upstream = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr = Loopback(upstream_port_);
  if (upstream < 0 || connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    if (upstream >= 0) close(upstream);
    Track(client, false);
    return;
  }
  Track(upstream, true);
  char buf[16384];
  while (!stopping_) {
    pollfd fds[3] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (poll(fds, 3, -1) < 0 && errno != EINTR) break;
    if (fds[2].revents != 0) break;
    bool from_upstream = fds[1].revents != 0;
    int from = from_upstream ? upstream : client;
    if (!from_upstream && fds[0].revents == 0) continue;
    ssize_t n = recv(from, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (from_upstream && !Wait(delay_)) break;
    if (!SendAll(from_upstream ? client : upstream, buf, static_cast<size_t>(n))) break;
  }
  Track(upstream, false);
  Track(client, false);
}

}  // namespace dra::testing
