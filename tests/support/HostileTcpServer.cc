#include "tests/support/HostileTcpServer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dra::testing {

kube::Result<std::unique_ptr<HostileTcpServer>> HostileTcpServer::Start() {
  return Start(Script{});
}

kube::Result<std::unique_ptr<HostileTcpServer>> HostileTcpServer::Start(Script script) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return kube::Status(kube::StatusCode::kInternal, std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  int pipe_fds[2];
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 64) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
      pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    std::string error = std::strerror(errno);
    close(fd);
    return kube::Status(kube::StatusCode::kInternal, "HostileTcpServer: " + error);
  }
  std::unique_ptr<HostileTcpServer> server(
      new HostileTcpServer(fd, pipe_fds[0], pipe_fds[1], ntohs(addr.sin_port), std::move(script)));
  server->accept_thread_ = std::thread([s = server.get()] { s->AcceptLoop(); });
  return server;
}

HostileTcpServer::HostileTcpServer(int listen_fd, int wake_read, int wake_write, int port,
                                   Script script)
    : listen_fd_(listen_fd),
      wake_read_(wake_read),
      wake_write_(wake_write),
      port_(port),
      script_(std::move(script)) {}

HostileTcpServer::~HostileTcpServer() {
  Stop();
  close(wake_read_);
  close(wake_write_);
}

std::string HostileTcpServer::Url(const std::string& scheme) const {
  return scheme + "://127.0.0.1:" + std::to_string(port_);
}

void HostileTcpServer::Stop() {
  if (stopping_.exchange(true)) return;
  (void)!write(wake_write_, "x", 1);  // the pipe stays readable: wakes every poll
  accept_thread_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
  close(listen_fd_);
}

void HostileTcpServer::AcceptLoop() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) continue;
    ++accepted_;
    std::lock_guard lock(mu_);
    threads_.emplace_back([this, fd] { Serve(fd); });
  }
}

void HostileTcpServer::Serve(int fd) {
  bool open = WriteAll(fd, script_.prefix);
  for (std::size_t sent = 0; open && !script_.filler.empty() && sent < script_.filler_bytes;
       sent += script_.filler.size()) {
    open = WriteAll(fd, script_.filler);
  }
  if (open && !script_.close_after_filler) DrainUntilClosed(fd);
  close(fd);
}

bool HostileTcpServer::WaitWritable(int fd) {
  pollfd fds[2] = {{fd, POLLOUT, 0}, {wake_read_, POLLIN, 0}};
  if (poll(fds, 2, -1) < 0) return errno == EINTR;
  return fds[1].revents == 0 && (fds[0].revents & (POLLERR | POLLHUP)) == 0;
}

bool HostileTcpServer::WriteAll(int fd, const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    if (stopping_) return false;
    ssize_t n = send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!WaitWritable(fd)) return false;
    } else {
      return false;
    }
  }
  return true;
}

void HostileTcpServer::DrainUntilClosed(int fd) {
  char buf[4096];
  while (true) {
    pollfd fds[2] = {{fd, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if (fds[0].revents == 0) continue;
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
  }
}

}  // namespace dra::testing
