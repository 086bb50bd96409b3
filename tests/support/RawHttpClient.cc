#include "tests/support/RawHttpClient.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace dra::testing {
namespace {

kube::Status Failed(const std::string& what) {
  return kube::Status(kube::StatusCode::kUnavailable, what);
}

}  // namespace

int RawHttpClient::Connect(int port, std::chrono::milliseconds timeout) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

kube::Result<RawHttpClient::Response> RawHttpClient::Send(int port, const std::string& method,
                                                          const std::string& path, bool keep_body,
                                                          std::chrono::milliseconds timeout) {
  int fd = Connect(port, timeout);
  if (fd < 0) return Failed("cannot connect to port " + std::to_string(port));
  std::string request = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    close(fd);
    return Failed("cannot send the request");
  }
  Response response;
  std::vector<char> buffer(std::size_t{1} << 20);
  bool in_head = true;
  while (true) {
    ssize_t n = recv(fd, buffer.data(), buffer.size(), 0);
    if (n < 0) {
      close(fd);
      return Failed("read failed or timed out");
    }
    if (n == 0) break;
    std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
    if (in_head) {
      response.head.append(chunk);
      auto end = response.head.find("\r\n\r\n");
      if (end == std::string::npos) continue;
      in_head = false;
      chunk = std::string_view(response.head).substr(end + 4);
      response.body_bytes = chunk.size();
      if (keep_body) response.body.assign(chunk);
      response.head.resize(end + 4);
      continue;
    }
    response.body_bytes += chunk.size();
    if (keep_body) response.body.append(chunk);
  }
  close(fd);
  if (in_head) return Failed("connection closed before the end of the response head");
  return response;
}

long long RawHttpClient::ContentLength(const std::string& head) {
  std::string lower;
  for (char c : head)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  auto at = lower.find("\r\ncontent-length:");
  if (at == std::string::npos) return -1;
  return std::atoll(lower.c_str() + at + std::strlen("\r\ncontent-length:"));
}

}  // namespace dra::testing
