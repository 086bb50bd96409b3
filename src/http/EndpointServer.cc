#include "src/http/EndpointServer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <string_view>
#include <system_error>
#include <vector>

namespace kube {
namespace {

// At most this many connections are served at once, each within a deadline
// for its whole exchange and one request per connection (no keep-alive).
// When all are taken, a newcomer evicts the oldest one that has not yet sent
// a complete request (an idle or trickling socket), so idle sockets cannot
// keep the kubelet's probes out; a newcomer is turned away only when every
// connection is busy serving a request.
constexpr std::size_t kMaxConnections = 16;
constexpr std::chrono::milliseconds kRequestTimeout{5000};
constexpr std::size_t kMaxRequestHeadBytes = std::size_t{16} * 1024;

// A write(2) or SSL_write() takes at most this much at once (SSL_write takes
// an int; a bounded chunk also keeps each call's send timeout meaningful).
constexpr std::size_t kMaxWriteChunk = std::size_t{1} << 20;

std::string ResponseHead(int status, const char* reason, const EndpointServer::Reply& reply) {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: " + reply.content_type +
         "\r\nContent-Length: " + std::to_string(reply.BodySize()) +
         "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
}

const char* ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

Status OpenSslError(const std::string& what) {
  unsigned long code = ERR_get_error();
  char text[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, text, sizeof(text));
  ERR_clear_error();
  return Status(StatusCode::kInvalidArgument, what + ": " + text);
}

// Leaf certificate, chain and key from PEM text into a new server context.
Result<SSL_CTX*> NewServerContext(const EndpointServer::TlsOptions& tls) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx == nullptr) return OpenSslError("SSL_CTX_new");
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  BIO* certs = BIO_new_mem_buf(tls.cert_pem.data(), static_cast<int>(tls.cert_pem.size()));
  X509* leaf = PEM_read_bio_X509(certs, nullptr, nullptr, nullptr);
  bool ok = leaf != nullptr && SSL_CTX_use_certificate(ctx, leaf) == 1;
  X509_free(leaf);
  while (ok) {
    X509* chain = PEM_read_bio_X509(certs, nullptr, nullptr, nullptr);
    if (chain == nullptr) break;
    if (SSL_CTX_add0_chain_cert(ctx, chain) != 1) X509_free(chain);
  }
  BIO_free(certs);
  ERR_clear_error();  // the chain loop ends on "no start line"
  if (!ok) {
    SSL_CTX_free(ctx);
    return OpenSslError("TLS certificate");
  }
  BIO* key_bio = BIO_new_mem_buf(tls.key_pem.data(), static_cast<int>(tls.key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
  BIO_free(key_bio);
  ok = key != nullptr && SSL_CTX_use_PrivateKey(ctx, key) == 1 && SSL_CTX_check_private_key(ctx);
  EVP_PKEY_free(key);
  if (!ok) {
    SSL_CTX_free(ctx);
    return OpenSslError("TLS private key (missing, or not the certificate's)");
  }
  return ctx;
}

int BindAndListen(const sockaddr* addr, socklen_t size) {
  int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  int zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  // "::" takes IPv4 too (dual-stack), whatever net.ipv6.bindv6only says.
  if (addr->sa_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  if (bind(fd, addr, size) != 0 || listen(fd, 64) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

int ListenOnHost(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) return -1;
  int fd = BindAndListen(found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  return fd;
}

// ":PORT" and "[::]:PORT" listen on every interface, dual-stack, or IPv4 only
// when the host has no IPv6; "HOST:PORT" and "[IPv6]:PORT" on that address.
int ListenOn(const std::string& bind_address) {
  auto colon = bind_address.rfind(':');
  if (colon == std::string::npos) return -1;
  std::string host = bind_address.substr(0, colon);
  std::string port = bind_address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (port.empty()) return -1;
  if (!host.empty() && host != "::") return ListenOnHost(host, port);
  int fd = ListenOnHost("::", port);
  return fd >= 0 ? fd : ListenOnHost("0.0.0.0", port);
}

int LocalPort(int fd) {
  sockaddr_storage addr{};
  socklen_t size = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size) != 0) return 0;
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
}

void SetIoTimeout(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

// One read or write on the connection, through TLS when `ssl` is set; what
// read(2)/write(2) return (<= 0: closed, failed or timed out).
int ReadSome(int fd, SSL* ssl, char* buffer, int size) {
  if (ssl != nullptr) return SSL_read(ssl, buffer, size);
  return static_cast<int>(recv(fd, buffer, static_cast<std::size_t>(size), 0));
}

// `more`: further data follows at once (plain TCP holds back a partial
// segment instead of sending it alone).
int WriteSome(int fd, SSL* ssl, const char* data, int size, bool more) {
  if (ssl != nullptr) return SSL_write(ssl, data, size);
  int flags = MSG_NOSIGNAL | (more ? MSG_MORE : 0);
  return static_cast<int>(send(fd, data, static_cast<std::size_t>(size), flags));
}

// Reads the request head (through the blank line) within the deadline.
// Returns 0 when read, else the HTTP status to answer with (-1: just close).
int ReadRequestHead(int fd, SSL* ssl, std::chrono::steady_clock::time_point deadline,
                    std::string& head) {
  char buffer[4096];
  while (head.find("\r\n\r\n") == std::string::npos) {
    if (head.size() > kMaxRequestHeadBytes) return 431;
    if (std::chrono::steady_clock::now() > deadline) return -1;
    int n = ReadSome(fd, ssl, buffer, sizeof(buffer));
    if (n <= 0) return -1;
    head.append(buffer, static_cast<std::size_t>(n));
  }
  return 0;
}

bool StartsWithIgnoringCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

std::string Trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  auto end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(begin, end - begin + 1));
}

// "GET /metrics?x HTTP/1.1" and its headers; false when malformed.
bool ParseRequestHead(const std::string& head, EndpointServer::Request& request) {
  auto line_end = head.find("\r\n");
  std::string_view line(head.data(), line_end);
  auto first = line.find(' ');
  auto second = line.find(' ', first == std::string_view::npos ? first : first + 1);
  if (first == std::string_view::npos || second == std::string_view::npos) return false;
  if (line.substr(second + 1).rfind("HTTP/1.", 0) != 0) return false;
  request.method = std::string(line.substr(0, first));
  std::string_view target = line.substr(first + 1, second - first - 1);
  if (target.empty() || target[0] != '/') return false;
  request.path = std::string(target.substr(0, target.find('?')));
  for (auto pos = line_end + 2; pos < head.size();) {
    auto end = head.find("\r\n", pos);
    std::string_view header(head.data() + pos, end - pos);
    if (StartsWithIgnoringCase(header, "authorization:")) {
      request.authorization = Trim(header.substr(std::strlen("authorization:")));
    }
    pos = end + 2;
  }
  return true;
}

bool WriteAll(int fd, SSL* ssl, std::string_view data, bool more) {
  std::size_t written = 0;
  while (written < data.size()) {
    std::size_t chunk = std::min(data.size() - written, kMaxWriteChunk);
    bool last = written + chunk == data.size();
    int n = WriteSome(fd, ssl, data.data() + written, static_cast<int>(chunk), more || !last);
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// The head (and the body, small) in one write, then the shared buffers as
// they are: never a copy of a large body.
bool WriteResponse(int fd, SSL* ssl, const EndpointServer::Reply& reply, bool with_body) {
  std::string head = ResponseHead(reply.status, ReasonPhrase(reply.status), reply);
  if (!with_body) return WriteAll(fd, ssl, head, false);
  std::vector<std::string_view> parts;
  for (const auto& text : reply.shared_body) {
    if (text && !text->empty()) parts.emplace_back(*text);
  }
  head += reply.body;
  if (!WriteAll(fd, ssl, head, !parts.empty())) return false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!WriteAll(fd, ssl, parts[i], i + 1 < parts.size())) return false;
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<EndpointServer>> EndpointServer::Start(
    const std::string& bind_address, const std::map<std::string, Handler>& routes) {
  std::map<std::string, RequestHandler> adapted;
  for (const auto& [path, handler] : routes) {
    adapted.emplace(path, [h = handler](const Request&) { return h(); });
  }
  return Start(bind_address, std::move(adapted), std::nullopt);
}

Result<std::unique_ptr<EndpointServer>> EndpointServer::Start(
    const std::string& bind_address, std::map<std::string, RequestHandler> routes,
    const std::optional<TlsOptions>& tls) {
  std::unique_ptr<EndpointServer> server(new EndpointServer());
  server->routes_ = std::move(routes);
  Status started = server->Listen(bind_address, tls);
  if (!started.ok()) return started;
  return server;
}

Status EndpointServer::Listen(const std::string& bind_address,
                              const std::optional<TlsOptions>& tls) {
  if (tls) {
    auto ctx = NewServerContext(*tls);
    if (!ctx.ok()) return ctx.status();
    ssl_ctx_ = *ctx;
  }
  listen_fd_ = ListenOn(bind_address);
  if (listen_fd_ < 0) {
    return Status(StatusCode::kUnavailable,
                  "cannot listen on " + bind_address + " (address in use or invalid?)");
  }
  if (pipe2(wake_fds_, O_CLOEXEC) != 0) {
    return Status(StatusCode::kInternal, "pipe: " + std::system_category().message(errno));
  }
  port_ = LocalPort(listen_fd_);
  accept_thread_ = std::thread([this] { AcceptLoop(); });
  return Status::Ok();
}

// "/metrics" serves "/metrics" and everything under "/metrics/".
const EndpointServer::RequestHandler* EndpointServer::FindRoute(const std::string& path) const {
  for (const auto& [prefix, handler] : routes_) {
    if (path == prefix || (path.rfind(prefix, 0) == 0 && path[prefix.size()] == '/')) {
      return &handler;
    }
  }
  return nullptr;
}

EndpointServer::Reply EndpointServer::Serve(const Request& request) const {
  const RequestHandler* handler = FindRoute(request.path);
  if (handler == nullptr) return Reply{404, "not found\n"};
  try {
    return (*handler)(request);
  } catch (const std::exception& e) {
    return Reply{500, std::string("handler failed: ") + e.what() + "\n"};
  }
}

void EndpointServer::AcceptLoop() {
  // OpenSSL writes with write(2): a client that hung up must cost an EPIPE,
  // not the process. Connection threads inherit the mask.
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fds_[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;  // stopping
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ReapFinishedConnections();
    JoinEvictedConnectionsIfMany();
    std::lock_guard lock(connections_mu_);
    if (!MakeRoomLocked()) {
      close(fd);  // every connection is serving a request: the client retries
      continue;
    }
    auto connection = std::make_unique<Connection>();
    connection->fd = fd;
    Connection* raw = connection.get();
    connections_.push_back(std::move(connection));
    raw->thread = std::thread([this, raw] { ServeConnection(raw); });
  }
}

// Oldest first: the first connection still waiting for its request is shut
// down (its thread then ends at once). Called with connections_mu_ held.
bool EndpointServer::MakeRoomLocked() {
  if (connections_.size() < kMaxConnections) return true;
  if (connections_.size() >= 2 * kMaxConnections) return false;  // evicted ones not reaped yet
  for (auto& connection : connections_) {
    if (connection->request_read || connection->evicted || connection->fd < 0) continue;
    shutdown(connection->fd, SHUT_RDWR);
    connection->evicted = true;
    return true;
  }
  return false;
}

void EndpointServer::ServeConnection(Connection* connection) {
  auto deadline = std::chrono::steady_clock::now() + kRequestTimeout;
  SetIoTimeout(connection->fd, kRequestTimeout);
  SSL* ssl = nullptr;
  bool open = true;
  if (ssl_ctx_ != nullptr) {
    ssl = SSL_new(ssl_ctx_);
    open = ssl != nullptr && SSL_set_fd(ssl, connection->fd) == 1 && SSL_accept(ssl) == 1;
  }
  if (open) {
    std::string head;
    int failed = ReadRequestHead(connection->fd, ssl, deadline, head);
    connection->request_read = true;
    Request request;
    Reply reply;
    if (failed == 0 && !ParseRequestHead(head, request)) failed = 400;
    if (failed == 0) reply = Serve(request);
    if (failed > 0) reply = Reply{failed, "bad request\n"};
    bool with_body = request.method != "HEAD";
    if (failed >= 0 && WriteResponse(connection->fd, ssl, reply, with_body) && ssl != nullptr) {
      SSL_shutdown(ssl);
    }
  }
  SSL_free(ssl);
  ERR_clear_error();
  {
    std::lock_guard lock(connections_mu_);
    close(connection->fd);
    connection->fd = -1;
  }
  connection->finished = true;
}

// A burst of idle sockets evicts faster than the evicted threads end; without
// this the newcomer after the burst (a probe) would be turned away. Evicted
// connections were shut down, so joining them takes no longer than their
// threads need to notice.
void EndpointServer::JoinEvictedConnectionsIfMany() {
  std::vector<std::unique_ptr<Connection>> evicted;
  {
    std::lock_guard lock(connections_mu_);
    if (connections_.size() < 2 * kMaxConnections - 1) return;
    for (auto it = connections_.begin(); it != connections_.end();) {
      if ((*it)->evicted) {
        evicted.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& connection : evicted) connection->thread.join();
}

void EndpointServer::ReapFinishedConnections() {
  std::lock_guard lock(connections_mu_);
  for (auto it = connections_.begin(); it != connections_.end();) {
    if ((*it)->finished) {
      (*it)->thread.join();
      it = connections_.erase(it);
    } else {
      ++it;
    }
  }
}

void EndpointServer::Stop() {
  if (accept_thread_.joinable()) {
    char byte = 1;
    (void)!write(wake_fds_[1], &byte, 1);
    accept_thread_.join();
  }
  {
    std::lock_guard lock(connections_mu_);  // unblock connections still reading
    for (auto& connection : connections_) {
      if (connection->fd >= 0) shutdown(connection->fd, SHUT_RDWR);
    }
  }
  for (auto& connection : connections_) connection->thread.join();
  connections_.clear();
  for (int fd : {listen_fd_, wake_fds_[0], wake_fds_[1]}) {
    if (fd >= 0) close(fd);
  }
  if (ssl_ctx_ != nullptr) SSL_CTX_free(ssl_ctx_);
}

EndpointServer::~EndpointServer() { Stop(); }

std::size_t EndpointServer::Reply::BodySize() const {
  std::size_t size = body.size();
  for (const auto& text : shared_body) size += text ? text->size() : 0;
  return size;
}

}  // namespace kube
