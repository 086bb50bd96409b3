#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "src/auth/ServingCertificate.h"
#include "src/http/EndpointServer.h"
#include "src/http/HttpTransport.h"
#include "tests/support/RawHttpClient.h"
#include "tests/support/SlowTcpProxy.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestTime.h"
#include "tests/support/WaitFor.h"

namespace kube {
namespace {

Result<HttpResponse> Get(int port, const std::string& path) {
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  auto transport = HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  HttpRequest request;
  request.path = path;
  return (*transport)->Send(request);
}

// Sends `bytes` on a fresh connection (all of them, even after the server
// answered) and reads until the server closes: the raw response, or "" when
// the connection ended without one.
std::string Exchange(int port, const std::string& bytes,
                     std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  int fd = dra::testing::RawHttpClient::Connect(port, timeout);
  if (fd < 0) return "";
  std::thread sender([fd, &bytes] {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
  });
  std::string response;
  char buffer[16384];
  while (true) {
    ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    response.append(buffer, static_cast<std::size_t>(n));
  }
  shutdown(fd, SHUT_RDWR);
  sender.join();
  close(fd);
  return response;
}

int StatusOf(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return -1;
  return std::stoi(response.substr(9, 3));
}

std::string HeaderOf(const std::string& response, const std::string& name) {
  auto head = response.substr(0, response.find("\r\n\r\n"));
  auto at = head.find("\r\n" + name + ": ");
  if (at == std::string::npos) return "";
  at += name.size() + 4;
  return head.substr(at, head.find("\r\n", at) - at);
}

TEST(EndpointServerTest, ServesRoutesOnAFreePort) {
  std::atomic<bool> ready{false};
  auto server = EndpointServer::Start("127.0.0.1:0",
                                      {{"/healthz",
                                        [] {
                                          return EndpointServer::Reply{200, "ok\n"};
                                        }},
                                       {"/readyz", [&] {
                                          return ready ? EndpointServer::Reply{200, "ok\n"}
                                                       : EndpointServer::Reply{503, "not yet\n"};
                                        }}});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  ASSERT_GT(port, 0);

  auto health = Get(port, "/healthz");
  ASSERT_TRUE(health.ok()) << health.status().ToString();
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "ok\n");

  EXPECT_EQ(Get(port, "/readyz")->status, 503);
  ready = true;
  EXPECT_EQ(Get(port, "/readyz")->status, 200);
  EXPECT_EQ(Get(port, "/nope")->status, 404);
}

TEST(EndpointServerTest, HandlerExceptionBecomes500) {
  auto server = EndpointServer::Start(
      "127.0.0.1:0",
      {{"/boom", []() -> EndpointServer::Reply { throw std::runtime_error("kaput"); }}});
  ASSERT_TRUE(server.ok());
  auto reply = Get((*server)->port(), "/boom");
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 500);
  EXPECT_EQ(reply->body.find("kaput"), std::string::npos) << "the exception's text is not sent";
}

// An open TCP connection that never sends a request.
struct IdleConnection {
  int fd = -1;
  explicit IdleConnection(int port) : fd(dra::testing::RawHttpClient::Connect(port)) {}
  ~IdleConnection() {
    if (fd >= 0) close(fd);
  }
};

// More idle sockets than the server has connection slots: the probe evicts
// the oldest idle one instead of waiting for its 5 s timeout.
TEST(EndpointServerTest, IdleConnectionsDoNotBlockProbes) {
  auto server = EndpointServer::Start("127.0.0.1:0", {{"/healthz", [] {
                                                         return EndpointServer::Reply{200, "ok\n"};
                                                       }}});
  ASSERT_TRUE(server.ok());
  int port = (*server)->port();
  std::vector<std::unique_ptr<IdleConnection>> idle;
  for (int i = 0; i < 64; ++i) {
    idle.push_back(std::make_unique<IdleConnection>(port));
    ASSERT_GE(idle.back()->fd, 0);
  }
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  config.request_timeout = std::chrono::seconds(1);
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok());
  HttpRequest request;
  request.path = "/healthz";
  auto start = std::chrono::steady_clock::now();
  auto health = (*transport)->Send(request);
  ASSERT_TRUE(health.ok()) << health.status().ToString();
  EXPECT_EQ(health->status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

// A text of `size` bytes whose every line is different, so a byte lost,
// repeated or moved changes it.
std::shared_ptr<const std::string> NumberedLines(std::size_t size, const std::string& tag) {
  std::string text;
  text.reserve(size + 64);
  for (std::size_t line = 0; text.size() < size; ++line) {
    text += tag + " " + std::to_string(line) + "\n";
  }
  text.resize(size);
  return std::make_shared<const std::string>(std::move(text));
}

// A /metrics-sized reply (tens of MB, as at 40k devices) made of a small
// body and shared buffers arrives whole, in order, byte for byte, with the
// Content-Length of all of it; HEAD gets the length and no body.
TEST(EndpointServerTest, LargeSharedBodyIsServedWholeAndByteIdentical) {
  auto big = NumberedLines(std::size_t{24} << 20, "series");
  auto tail = std::make_shared<const std::string>("last 1\n");
  std::shared_ptr<const std::string> none;
  auto empty = std::make_shared<const std::string>();
  auto server = EndpointServer::Start(
      "127.0.0.1:0",
      {{"/metrics", [&] {
          return EndpointServer::Reply{200, "first 1\n", "text/plain", {big, none, empty, tail}};
        }}});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::string expected = "first 1\n" + *big + *tail;

  auto reply = dra::testing::RawHttpClient::Send((*server)->port(), "GET", "/metrics");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << reply->head;
  EXPECT_EQ(dra::testing::RawHttpClient::ContentLength(reply->head),
            static_cast<long long>(expected.size()));
  ASSERT_EQ(reply->body.size(), expected.size());
  EXPECT_TRUE(reply->body == expected) << "the body differs from the shared text";

  auto head = dra::testing::RawHttpClient::Send((*server)->port(), "HEAD", "/metrics");
  ASSERT_TRUE(head.ok()) << head.status().ToString();
  EXPECT_EQ(dra::testing::RawHttpClient::ContentLength(head->head),
            static_cast<long long>(expected.size()));
  EXPECT_EQ(head->body_bytes, 0u);
}

// Scrapes while the cached text is replaced (a re-render): each one gets
// one whole version, never a mix or a torn buffer, and the replaced
// versions stay valid for the scrapes still writing them.
TEST(EndpointServerTest, ConcurrentScrapesWhileTheSharedTextIsReplaced) {
  std::mutex mu;
  std::vector<std::shared_ptr<const std::string>> versions;
  for (int v = 0; v < 4; ++v) {
    versions.push_back(NumberedLines((std::size_t{3} << 20) + v * 4096, "v" + std::to_string(v)));
  }
  std::shared_ptr<const std::string> current = versions[0];
  auto server = EndpointServer::Start(
      "127.0.0.1:0", {{"/metrics", [&] {
                         std::lock_guard lock(mu);
                         return EndpointServer::Reply{200, "", "text/plain", {current}};
                       }}});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::atomic<bool> done{false};
  std::thread renderer([&] {
    for (std::size_t i = 1; !done; ++i) {
      auto next = versions[i % versions.size()];
      {
        std::lock_guard lock(mu);
        current = std::move(next);  // the handler's reference keeps the old one alive
      }
      std::this_thread::yield();
    }
  });
  std::atomic<int> whole{0};
  std::atomic<int> torn{0};
  std::vector<std::thread> scrapers;
  for (int t = 0; t < 4; ++t) {
    scrapers.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        auto reply = dra::testing::RawHttpClient::Send((*server)->port(), "GET", "/metrics");
        bool ok = reply.ok() && std::any_of(versions.begin(), versions.end(),
                                            [&](const auto& v) { return reply->body == *v; });
        ++(ok ? whole : torn);
      }
    });
  }
  for (auto& scraper : scrapers) scraper.join();
  done = true;
  renderer.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_EQ(whole.load(), 20);
}

bool HostHasIpv6Loopback() {
  int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_addr = in6addr_loopback;
  bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

Result<HttpResponse> GetFrom(const std::string& host, int port, const std::string& path) {
  RestConfig config;
  config.server = "http://" + host + ":" + std::to_string(port);
  config.request_timeout = std::chrono::seconds(2);
  auto transport = HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  HttpRequest request;
  request.path = path;
  return (*transport)->Send(request);
}

const std::map<std::string, EndpointServer::Handler> kHealthz = {
    {"/healthz", [] {
       return EndpointServer::Reply{200, "ok\n"};
     }}};

TEST(EndpointServerTest, ServesOnAnIpv6Address) {
  if (!HostHasIpv6Loopback()) GTEST_SKIP() << "no IPv6 loopback on this host";
  auto server = EndpointServer::Start("[::1]:0", kHealthz);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto health = GetFrom("[::1]", (*server)->port(), "/healthz");
  ASSERT_TRUE(health.ok()) << health.status().ToString();
  EXPECT_EQ(health->status, 200);
  EXPECT_FALSE(GetFrom("127.0.0.1", (*server)->port(), "/healthz").ok())
      << "[::1] is that address only";
}

// ":PORT" (the flags' default form) and "[::]:PORT" are dual-stack.
TEST(EndpointServerTest, AllInterfacesIncludesIpv6AndIpv4) {
  if (!HostHasIpv6Loopback()) GTEST_SKIP() << "no IPv6 loopback on this host";
  for (const std::string bind : {":0", "[::]:0"}) {
    auto server = EndpointServer::Start(bind, kHealthz);
    ASSERT_TRUE(server.ok()) << bind << ": " << server.status().ToString();
    for (const std::string host : {"[::1]", "127.0.0.1"}) {
      auto health = GetFrom(host, (*server)->port(), "/healthz");
      ASSERT_TRUE(health.ok()) << bind << " from " << host << ": " << health.status().ToString();
      EXPECT_EQ(health->status, 200) << bind << " from " << host;
    }
  }
}

TEST(EndpointServerTest, Ipv4AnyStaysIpv4) {
  auto server = EndpointServer::Start("0.0.0.0:0", kHealthz);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  EXPECT_EQ(GetFrom("127.0.0.1", (*server)->port(), "/healthz")->status, 200);
  if (HostHasIpv6Loopback()) {
    EXPECT_FALSE(GetFrom("[::1]", (*server)->port(), "/healthz").ok());
  }
}

TEST(EndpointServerTest, MalformedBindAddressesAreErrors) {
  for (const std::string bind : {"8080", "127.0.0.1:", "[::1", "nohost:0"}) {
    auto server = EndpointServer::Start(bind, kHealthz);
    EXPECT_FALSE(server.ok()) << bind;
  }
}

TEST(EndpointServerTest, PortInUseIsAnError) {
  auto first = EndpointServer::Start("127.0.0.1:0", {});
  ASSERT_TRUE(first.ok());
  auto second = EndpointServer::Start("127.0.0.1:" + std::to_string((*first)->port()), {});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
}

EndpointServer::Reply Echo(const EndpointServer::Request& request) {
  return EndpointServer::Reply{200,
                               request.method + "|" + request.path + "|" + request.authorization};
}

// Budgets per client need the client's address.
TEST(EndpointServerTest, HandlersSeeThePeerAddress) {
  auto server = EndpointServer::Start("127.0.0.1:0",
                                      {{"/peer",
                                        [](const EndpointServer::Request& r) {
                                          return EndpointServer::Reply{200, r.peer};
                                        }}},
                                      std::nullopt);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto reply = Get((*server)->port(), "/peer");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->body, "127.0.0.1");
}

Result<HttpResponse> Send(const RestConfig& config, const std::string& method,
                          const std::string& path, const std::string& authorization) {
  auto transport = HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  HttpRequest request;
  request.method = method;
  request.path = path;
  if (!authorization.empty()) request.headers.emplace_back("Authorization", authorization);
  return (*transport)->Send(request);
}

RestConfig HttpsTo(int port, const std::string& ca_pem) {
  RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(port);
  config.ca_pem = ca_pem;
  config.request_timeout = dra::testing::TestTime::Scaled(std::chrono::seconds(3));
  return config;
}

TEST(EndpointServerTest, RequestHandlersSeeMethodPathAndAuthorization) {
  auto server = EndpointServer::Start("127.0.0.1:0", {{"/echo", Echo}}, std::nullopt);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  EXPECT_FALSE((*server)->tls());
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string((*server)->port());
  auto reply = Send(config, "GET", "/echo/sub?x=1", "Bearer abc");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->body, "GET|/echo/sub|Bearer abc");
  EXPECT_EQ(Send(config, "GET", "/echo", "")->body, "GET|/echo|");
}

class TlsEndpointServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cert = ServingCertificate::SelfSigned({"localhost"});
    ASSERT_TRUE(cert.ok()) << cert.status().ToString();
    cert_ = *cert;
  }

  Result<std::unique_ptr<EndpointServer>> StartTls(
      std::map<std::string, EndpointServer::RequestHandler> routes) {
    return EndpointServer::Start("127.0.0.1:0", std::move(routes),
                                 EndpointServer::TlsOptions{cert_.cert_pem, cert_.key_pem});
  }

  ServingCertificate cert_;
};

TEST_F(TlsEndpointServerTest, ServesHttpsWithTheGivenCertificate) {
  auto server = StartTls({{"/echo", Echo}});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  EXPECT_TRUE((*server)->tls());
  int port = (*server)->port();
  ASSERT_GT(port, 0);
  auto reply = Send(HttpsTo(port, cert_.cert_pem), "GET", "/echo/x?y=z", "Bearer abc");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "GET|/echo/x|Bearer abc");
  EXPECT_EQ(reply->Header("content-type"), "text/plain; charset=utf-8");
  EXPECT_EQ(Send(HttpsTo(port, cert_.cert_pem), "GET", "/echoes", "")->status, 404);
  EXPECT_EQ(Send(HttpsTo(port, cert_.cert_pem), "GET", "/", "")->status, 404);
}

TEST_F(TlsEndpointServerTest, ListensOnAllInterfaces) {
  auto server = EndpointServer::Start(":0", {{"/echo", Echo}},
                                      EndpointServer::TlsOptions{cert_.cert_pem, cert_.key_pem});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto reply = Send(HttpsTo((*server)->port(), cert_.cert_pem), "GET", "/echo", "");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
}

TEST_F(TlsEndpointServerTest, SpeaksNoPlainHttp) {
  auto server = StartTls({{"/echo", Echo}});
  ASSERT_TRUE(server.ok());
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string((*server)->port());
  config.request_timeout = std::chrono::seconds(3);
  auto reply = Send(config, "GET", "/echo", "");
  EXPECT_FALSE(reply.ok() && reply->status == 200);
  // ...and keeps serving TLS clients afterwards.
  EXPECT_EQ(Send(HttpsTo((*server)->port(), cert_.cert_pem), "GET", "/echo", "")->status, 200);
}

TEST_F(TlsEndpointServerTest, ClientsThatDoNotTrustTheCertificateFail) {
  auto server = StartTls({{"/echo", Echo}});
  ASSERT_TRUE(server.ok());
  auto other = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(Send(HttpsTo((*server)->port(), other->cert_pem), "GET", "/echo", "").ok());
}

TEST_F(TlsEndpointServerTest, RefusesAKeyThatIsNotTheCertificates) {
  auto other = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(other.ok());
  auto server = EndpointServer::Start("127.0.0.1:0", {{"/echo", Echo}},
                                      EndpointServer::TlsOptions{cert_.cert_pem, other->key_pem});
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(
      EndpointServer::Start("127.0.0.1:0", {}, EndpointServer::TlsOptions{"junk", "junk"}).ok());
}

TEST_F(TlsEndpointServerTest, HandlerExceptionBecomes500) {
  auto server = StartTls({{"/boom", [](const EndpointServer::Request&) -> EndpointServer::Reply {
                             throw std::runtime_error("kaput");
                           }}});
  ASSERT_TRUE(server.ok());
  auto reply = Send(HttpsTo((*server)->port(), cert_.cert_pem), "GET", "/boom", "");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 500);
}

// A client far away (300 ms round trip, through a proxy) while new sockets
// keep arriving, each evicting the oldest idle connection: once its
// ClientHello is in, its handshake is not idle, and it is answered.
TEST_F(TlsEndpointServerTest, HandshakeInProgressIsNotEvictedByAConnectFlood) {
  auto server = EndpointServer::StartRoutes(
      "127.0.0.1:0", {{"/echo", {Echo}}}, EndpointServer::TlsOptions{cert_.cert_pem, cert_.key_pem},
      {.max_connections = 2, .deadline = std::chrono::seconds(5)});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  auto proxy = dra::testing::SlowTcpProxy::Start(port, std::chrono::milliseconds(300));
  ASSERT_TRUE(proxy.ok()) << proxy.status().ToString();
  std::atomic<bool> flooding{true};
  std::thread flood([&] {
    std::vector<std::unique_ptr<IdleConnection>> idle;
    while (flooding) {
      idle.push_back(std::make_unique<IdleConnection>(port));
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  });
  RestConfig config = HttpsTo((*proxy)->port(), cert_.cert_pem);
  config.request_timeout = dra::testing::TestTime::Scaled(std::chrono::seconds(4));
  int answered = 0;
  for (int i = 0; i < 5; ++i) {
    auto reply = Send(config, "GET", "/echo", "");
    answered += reply.ok() && reply->status == 200 ? 1 : 0;
  }
  flooding = false;
  flood.join();
  EXPECT_GE(answered, 4);
}

TEST_F(TlsEndpointServerTest, IdleConnectionsDoNotBlockScrapesOrShutdown) {
  auto server = StartTls({{"/echo", Echo}});
  ASSERT_TRUE(server.ok());
  int port = (*server)->port();
  std::vector<std::unique_ptr<IdleConnection>> idle;
  for (int i = 0; i < 8; ++i) {
    idle.push_back(std::make_unique<IdleConnection>(port));
    ASSERT_GE(idle.back()->fd, 0);
  }
  auto start = std::chrono::steady_clock::now();
  auto reply = Send(HttpsTo(port, cert_.cert_pem), "GET", "/echo", "");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  // Idle clients that never send a byte must not hold up a scrape or the
  // shutdown. A server that waited on them would take its 5 s per-connection
  // deadline or hang, so the limit, however scaled, stays below that.
  auto limit = std::min<std::chrono::milliseconds>(
      dra::testing::TestTime::Scaled(std::chrono::seconds(1)), std::chrono::milliseconds(4500));
  EXPECT_LT(std::chrono::steady_clock::now() - start, limit);
  start = std::chrono::steady_clock::now();
  server->reset();  // with the idle connections still open
  EXPECT_LT(std::chrono::steady_clock::now() - start, limit);
}

// Over TLS the shared buffers go out in bounded SSL_write() chunks.
TEST_F(TlsEndpointServerTest, LargeSharedBodyIsServedWholeAndByteIdentical) {
  auto big = NumberedLines(std::size_t{5} << 20, "series");
  auto server = StartTls({{"/metrics", [&](const EndpointServer::Request&) {
                             return EndpointServer::Reply{200, "first 1\n", "text/plain", {big}};
                           }}});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto reply = Send(HttpsTo((*server)->port(), cert_.cert_pem), "GET", "/metrics", "");
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 200);
  ASSERT_EQ(reply->body.size(), big->size() + 8);
  EXPECT_TRUE(reply->body == "first 1\n" + *big) << "the body differs from the shared text";
}

// Bytes that are no TLS handshake (HTTP, a TLS record of junk, random
// bytes) close that connection only; the next client is served.
TEST_F(TlsEndpointServerTest, GarbageInsteadOfAHandshakeClosesThatConnectionOnly) {
  auto server = StartTls({{"/echo", Echo}});
  ASSERT_TRUE(server.ok());
  int port = (*server)->port();
  std::string record = std::string("\x16\x03\x01\x00\x40", 5) + std::string(64, '\xff');
  for (const std::string& junk :
       {std::string("GET /echo HTTP/1.1\r\n\r\n"), record, std::string(100000, '\x17')}) {
    auto start = std::chrono::steady_clock::now();
    std::string response = Exchange(port, junk);
    EXPECT_EQ(response.find("HTTP/1.1 200"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  }
  EXPECT_EQ(Send(HttpsTo(port, cert_.cert_pem), "GET", "/echo", "")->status, 200);
}

// Requests after a good handshake go through the same parser and limits.
TEST_F(TlsEndpointServerTest, PostWithBodyAfterTheHandshakeIs405) {
  auto server = StartTls({{"/echo", Echo}});
  ASSERT_TRUE(server.ok());
  RestConfig config = HttpsTo((*server)->port(), cert_.cert_pem);
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok());
  HttpRequest request;
  request.method = "POST";
  request.path = "/echo";
  request.body = "x";
  auto reply = (*transport)->Send(request);
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->status, 405);
  EXPECT_EQ(Send(config, "GET", "/echo", "")->status, 200);
}

// The serving certificate's files rotate (a renewed Secret): new handshakes
// use the new certificate, without a restart; files that do not load leave
// the current one in place.
TEST_F(TlsEndpointServerTest, RotatedCertificateFilesServeNewHandshakes) {
  dra::testing::TempDir dir;
  dir.Write("tls.crt", cert_.cert_pem);
  dir.Write("tls.key", cert_.key_pem);
  std::string path = dir.path().string();
  EndpointServer::TlsOptions tls{cert_.cert_pem, cert_.key_pem};
  tls.current = [path]() -> Result<std::pair<std::string, std::string>> {
    auto files = ServingCertificate::FromDirectory(path);
    if (!files.ok()) return files.status();
    return std::make_pair(files->cert_pem, files->key_pem);
  };
  auto server = EndpointServer::Start("127.0.0.1:0", {{"/echo", Echo}}, tls);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  EXPECT_EQ(Send(HttpsTo(port, cert_.cert_pem), "GET", "/echo", "")->status, 200);

  auto renewed = ServingCertificate::SelfSigned({"localhost"});
  ASSERT_TRUE(renewed.ok());
  dir.Write("tls.key", "half-written");  // a torn rotation is not used
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(Send(HttpsTo(port, cert_.cert_pem), "GET", "/echo", "")->status, 200);
  dir.Write("tls.crt", renewed->cert_pem);
  dir.Write("tls.key", renewed->key_pem);
  auto rotated = dra::testing::WaitFor("the renewed certificate", std::chrono::seconds(5), [&] {
    auto reply = Send(HttpsTo(port, renewed->cert_pem), "GET", "/echo", "");
    return reply.ok() && reply->status == 200;
  });
  EXPECT_TRUE(rotated.ok()) << rotated.ToString();
  EXPECT_FALSE(Send(HttpsTo(port, cert_.cert_pem), "GET", "/echo", "").ok())
      << "new handshakes still get the old certificate";
}

TEST_F(TlsEndpointServerTest, ClientHangingUpMidResponseDoesNotKillTheProcess) {
  std::string big(8 * 1024 * 1024, 'x');
  auto server = StartTls({{"/big",
                           [&big](const EndpointServer::Request&) {
                             return EndpointServer::Reply{200, big};
                           }},
                          {"/echo", Echo}});
  ASSERT_TRUE(server.ok());
  RestConfig config = HttpsTo((*server)->port(), cert_.cert_pem);
  config.max_response_body_bytes = 1024;  // the client gives up after 1 KiB
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(Send(config, "GET", "/big", "").ok());
  EXPECT_EQ(Send(HttpsTo((*server)->port(), cert_.cert_pem), "GET", "/echo", "")->status, 200);
}

// ---- Limits and hostile input (issue 37) ----

EndpointServer::Route Healthz() {
  return {[](const EndpointServer::Request&) { return EndpointServer::Reply{200, "ok\n"}; }};
}

// A route that takes JSON bodies, as an Alertmanager webhook.
EndpointServer::Route Webhook(std::size_t max_body) {
  return {[](const EndpointServer::Request& request) {
            return EndpointServer::Reply{202, request.content_type + "|" + request.body};
          },
          {"POST"},
          max_body};
}

class EndpointLimitsTest : public ::testing::Test {
 protected:
  void Start(EndpointServer::Limits limits = {}) {
    auto server = EndpointServer::StartRoutes(
        "127.0.0.1:0", {{"/healthz", Healthz()}, {"/alertmanager", Webhook(1024)}}, std::nullopt,
        limits);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
  }
  int port() const { return server_->port(); }
  // /healthz answers 200 within `within`.
  bool Healthy(std::chrono::milliseconds within = std::chrono::seconds(1)) {
    auto start = std::chrono::steady_clock::now();
    auto reply = dra::testing::RawHttpClient::Send(port(), "GET", "/healthz", true, within);
    return reply.ok() && reply->head.rfind("HTTP/1.1 200", 0) == 0 &&
           std::chrono::steady_clock::now() - start < within;
  }

  std::unique_ptr<EndpointServer> server_;
};

// The request that ended the process (std::length_error in the hand-written
// parser): a POST with a body on a probe path.
TEST_F(EndpointLimitsTest, PostWithBodyOnAProbeIs405WithAllow) {
  Start();
  std::string response =
      Exchange(port(), "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx");
  EXPECT_EQ(StatusOf(response), 405) << response;
  EXPECT_EQ(HeaderOf(response, "Allow"), "GET, HEAD");
  // The route decides before any length check: a huge Content-Length on a
  // probe is still 405, on an unknown path 404, and reserves nothing.
  EXPECT_EQ(StatusOf(Exchange(port(),
                              "POST /healthz HTTP/1.1\r\nContent-Length: 1000000000000\r\n\r\nxx")),
            405);
  EXPECT_EQ(
      StatusOf(Exchange(port(), "POST /nope HTTP/1.1\r\nContent-Length: 1000000000000\r\n\r\nxx")),
      404);
  EXPECT_TRUE(Healthy());
}

TEST_F(EndpointLimitsTest, BodyOnGetIs413) {
  Start();
  EXPECT_EQ(StatusOf(Exchange(port(), "GET /healthz HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")),
            413);
  EXPECT_EQ(StatusOf(Exchange(port(),
                              "GET /healthz HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
                              "\r\n3\r\nabc\r\n0\r\n\r\n")),
            413);
  EXPECT_TRUE(Healthy());
}

TEST_F(EndpointLimitsTest, OptionsAndOtherMethodsAre405AndHeadHasNoBody) {
  Start();
  std::string options = Exchange(port(), "OPTIONS /healthz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusOf(options), 405) << options;
  EXPECT_EQ(HeaderOf(options, "Allow"), "GET, HEAD");
  EXPECT_EQ(StatusOf(Exchange(port(), "DELETE /healthz HTTP/1.1\r\n\r\n")), 405);
  std::string head = Exchange(port(), "HEAD /healthz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusOf(head), 200) << head;
  EXPECT_EQ(HeaderOf(head, "Content-Length"), "3");
  EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "") << "HEAD got a body";
  std::string get_webhook = Exchange(port(), "GET /alertmanager HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusOf(get_webhook), 405);
  EXPECT_EQ(HeaderOf(get_webhook, "Allow"), "POST");
}

TEST_F(EndpointLimitsTest, RouteWithABodyLimitGetsTheBody) {
  Start();
  std::string json = R"({"alerts":[]})";
  std::string response = Exchange(port(),
                                  "POST /alertmanager HTTP/1.1\r\nContent-Type: "
                                  "application/json\r\nContent-Length: " +
                                      std::to_string(json.size()) + "\r\n\r\n" + json);
  EXPECT_EQ(StatusOf(response), 202) << response;
  EXPECT_EQ(response.substr(response.find("\r\n\r\n") + 4), "application/json|" + json);
  std::string chunked = Exchange(
      port(),
      "POST /alertmanager HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
  EXPECT_EQ(StatusOf(chunked), 202) << chunked;
  EXPECT_EQ(chunked.substr(chunked.find("\r\n\r\n") + 4), "|{}");
}

TEST_F(EndpointLimitsTest, BodyOverTheRouteLimitIs413) {
  Start();
  std::string big(2048, 'x');
  EXPECT_EQ(StatusOf(Exchange(port(),
                              "POST /alertmanager HTTP/1.1\r\nContent-Length: 2048\r\n\r\n" + big)),
            413);
  std::string chunks;
  for (int i = 0; i < 4; ++i) chunks += "200\r\n" + std::string(512, 'y') + "\r\n";
  EXPECT_EQ(StatusOf(Exchange(port(),
                              "POST /alertmanager HTTP/1.1\r\nTransfer-Encoding: "
                              "chunked\r\n\r\n" +
                                  chunks + "0\r\n\r\n")),
            413);
  EXPECT_TRUE(Healthy());
}

TEST_F(EndpointLimitsTest, OversizedRequestLineAndTooManyHeadersAre431) {
  Start();
  std::string long_line = "GET /healthz?" + std::string(200 * 1024, 'a') + " HTTP/1.1\r\n\r\n";
  EXPECT_EQ(StatusOf(Exchange(port(), long_line)), 431);
  std::string headers = "GET /healthz HTTP/1.1\r\n";
  for (int i = 0; i < 20000; ++i) headers += "X-H" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(StatusOf(Exchange(port(), headers + "\r\n")), 431);
  EXPECT_TRUE(Healthy());
}

TEST_F(EndpointLimitsTest, MalformedAndAmbiguousRequestsAre400) {
  Start();
  for (const std::string bad : {
           "GARBAGE\r\n\r\n",
           "GET /healthz\r\n\r\n",
           "GET /healthz HTTP/9.9\r\n\r\n",
           "GET healthz HTTP/1.1\r\n\r\n",
           "GET http://x/healthz HTTP/1.1\r\n\r\n",
           "GET /healthz HTTP/1.1\r\nNo colon here\r\n\r\n",
           "GET /healthz HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
           "GET /healthz HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
           "POST /alertmanager HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: "
           "chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
           "POST /alertmanager HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: "
           "2\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
           "POST /alertmanager HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n{}",
           "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
       }) {
    EXPECT_EQ(StatusOf(Exchange(port(), bad)), 400) << bad;
  }
  EXPECT_TRUE(Healthy());
}

TEST_F(EndpointLimitsTest, PathTraversalAndUnknownPathsAre404) {
  Start();
  for (const std::string path :
       {"/healthz/../etc/passwd", "/healthz/./x", "/healthz/%2e%2e/x", "//healthz", "/healthz\\..",
        "/../healthz", "/nope", "/healthzz"}) {
    EXPECT_EQ(StatusOf(Exchange(port(), "GET " + path + " HTTP/1.1\r\n\r\n")), 404) << path;
  }
  EXPECT_EQ(StatusOf(Exchange(port(), "GET /healthz/ping?verbose HTTP/1.1\r\n\r\n")), 200);
}

// A client that trickles its request (or sends nothing) is cut at the
// connection's deadline, counted from the accept.
TEST_F(EndpointLimitsTest, TricklingClientIsCutAtTheDeadline) {
  Start({.max_connections = 64, .deadline = std::chrono::milliseconds(400)});
  int fd = dra::testing::RawHttpClient::Connect(port(), std::chrono::seconds(5));
  ASSERT_GE(fd, 0);
  auto start = std::chrono::steady_clock::now();
  std::string request = "GET /healthz HTTP/1.1\r\nX-Slow: " + std::string(400, 'a');
  bool cut = false;
  for (char c : request) {
    if (send(fd, &c, 1, MSG_NOSIGNAL) != 1) {
      cut = true;
      break;
    }
    char byte;
    ssize_t got = recv(fd, &byte, 1, MSG_DONTWAIT);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
      cut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  close(fd);
  EXPECT_TRUE(cut) << "the trickling connection was never closed";
  EXPECT_LT(elapsed, std::chrono::milliseconds(2000));
  EXPECT_GE(elapsed, std::chrono::milliseconds(350));
}

// More idle sockets than slots, and every handler slot busy: idle ones are
// evicted for newcomers; only when every connection serves a request is a
// newcomer refused.
TEST_F(EndpointLimitsTest, IdleConnectionsAreEvictedBusyOnesAreNot) {
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> waiting{0};
  auto server = EndpointServer::StartRoutes(
      "127.0.0.1:0", {{"/healthz", Healthz()}, {"/slow", {[&](const EndpointServer::Request&) {
                                                  ++waiting;
                                                  std::unique_lock lock(mu);
                                                  cv.wait_for(lock, std::chrono::seconds(10),
                                                              [&] { return release; });
                                                  return EndpointServer::Reply{200, "slow\n"};
                                                }}}},
      std::nullopt, {.max_connections = 4, .deadline = std::chrono::seconds(10)});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  std::vector<std::unique_ptr<IdleConnection>> idle;
  for (int i = 0; i < 50; ++i) idle.push_back(std::make_unique<IdleConnection>(port));
  auto health =
      dra::testing::RawHttpClient::Send(port, "GET", "/healthz", true, std::chrono::seconds(1));
  ASSERT_TRUE(health.ok()) << health.status().ToString();
  EXPECT_EQ(health->head.rfind("HTTP/1.1 200", 0), 0u);

  std::vector<std::thread> slow;
  for (int i = 0; i < 4; ++i) {
    slow.emplace_back([port] { (void)Exchange(port, "GET /slow HTTP/1.1\r\n\r\n"); });
  }
  ASSERT_TRUE(dra::testing::WaitFor("two busy handlers", std::chrono::seconds(5), [&] {
                return waiting.load() >= 2;
              }).ok());
  // Four connections serve requests (two in handlers, two queued): no room.
  ASSERT_TRUE(dra::testing::WaitFor("a refused newcomer", std::chrono::seconds(5), [&] {
                return StatusOf(Exchange(port, "GET /healthz HTTP/1.1\r\n\r\n",
                                         std::chrono::milliseconds(500))) == -1;
              }).ok());
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  for (auto& t : slow) t.join();
  EXPECT_EQ(StatusOf(Exchange(port, "GET /healthz HTTP/1.1\r\n\r\n")), 200);
}

int ThreadCount() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/self/task")) {
    ++count;
  }
  return count;
}

// Connections cost no threads: 200 open sockets, and requests on them, leave
// the process's thread count where it was.
TEST_F(EndpointLimitsTest, ConnectionsDoNotCostThreads) {
  Start();
  ASSERT_TRUE(Healthy());
  int before = ThreadCount();
  std::vector<std::unique_ptr<IdleConnection>> idle;
  for (int i = 0; i < 200; ++i) idle.push_back(std::make_unique<IdleConnection>(port()));
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(Healthy()) << i;
  EXPECT_EQ(ThreadCount(), before);
}

// Clients that keep sending garbage as fast as they can: each gets its
// answer and is closed; the probe still answers at once.
TEST_F(EndpointLimitsTest, SpinningClientsDoNotStarveProbes) {
  Start();
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  for (int i = 0; i < 16; ++i) {
    spinners.emplace_back([&, i] {
      std::string junk = i % 2 ? std::string(64 * 1024, 'A')
                               : "GET /healthz HTTP/1.1\r\n" + std::string(64 * 1024, 'x');
      for (int round = 0; round < 200 && !stop; ++round) (void)Exchange(port(), junk);
    });
  }
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(Healthy()) << "probe " << i;
  stop = true;
  for (auto& t : spinners) t.join();
}

// Out of descriptors: accepts fail with EMFILE until some are free again;
// the accept loop backs off instead of spinning or ending, and serves the
// next client once descriptors are back.
TEST_F(EndpointLimitsTest, AcceptSurvivesRunningOutOfDescriptors) {
#if defined(__SANITIZE_ADDRESS__)
  // Under ASan a thread started while descriptors run out reads a freed
  // start routine (UBSan: invalid vptr in Asio's posix_thread); the plain
  // unit run covers this test.
  GTEST_SKIP() << "runs in the plain unit set only";
#endif
  Start();
  rlimit original{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &original), 0);
  std::vector<int> hogs;
  {
    rlimit low = original;
    int open_now = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
      ++open_now;
    }
    low.rlim_cur = static_cast<rlim_t>(open_now + 16);
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
    // Client sockets take the last descriptors; their server ends cannot be
    // accepted.
    for (int i = 0; i < 64; ++i) {
      int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd < 0) break;
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(static_cast<uint16_t>(port()));
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      (void)connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
      hogs.push_back(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // accepts fail meanwhile
  }
  for (int fd : hogs) close(fd);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &original), 0);
  EXPECT_TRUE(Healthy(std::chrono::seconds(2)));
}

// Stop() ends with connections in every state: idle, mid-request, and a
// handler still running.
TEST_F(EndpointLimitsTest, StopNeverWaitsOnClients) {
  Start();
  std::vector<std::unique_ptr<IdleConnection>> idle;
  for (int i = 0; i < 100; ++i) idle.push_back(std::make_unique<IdleConnection>(port()));
  int partial = dra::testing::RawHttpClient::Connect(port());
  ASSERT_GE(partial, 0);
  ASSERT_EQ(send(partial, "GET /hea", 8, MSG_NOSIGNAL), 8);
  auto start = std::chrono::steady_clock::now();
  server_.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  close(partial);
}

TEST(HttpTransportCreateTest, ConnectionRefusedIsUnavailable) {
  auto server = EndpointServer::Start("127.0.0.1:0", {});
  ASSERT_TRUE(server.ok());
  int port = (*server)->port();
  server->reset();  // nothing listens on the port any more
  auto reply = Get(port, "/");
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.status().code(), StatusCode::kUnavailable);
}

TEST(HttpTransportCreateTest, RejectsServerWithoutScheme) {
  RestConfig config;
  config.server = "127.0.0.1:6443";
  auto transport = HttpTransport::Create(config);
  ASSERT_FALSE(transport.ok());
  EXPECT_NE(transport.status().message().find("https://"), std::string::npos);
}

TEST(HttpTransportCreateTest, RejectsGarbageCertificateAuthority) {
  RestConfig config;
  config.server = "https://127.0.0.1:1";
  config.ca_pem = "not a certificate";
  auto transport = HttpTransport::Create(config);
  ASSERT_FALSE(transport.ok());
  EXPECT_NE(transport.status().message().find("certificate-authority"), std::string::npos);
}

}  // namespace
}  // namespace kube

namespace kube {
namespace {

// Work queued for connections that have ended (their deadline passed while
// both handler threads were busy) is dropped, not run for no one.
TEST_F(EndpointLimitsTest, QueuedWorkOfEndedConnectionsIsDropped) {
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> started{0};
  auto server = EndpointServer::StartRoutes(
      "127.0.0.1:0", {{"/slow", {[&](const EndpointServer::Request&) {
                         ++started;
                         std::unique_lock lock(mu);
                         cv.wait_for(lock, std::chrono::seconds(10), [&] { return release; });
                         return EndpointServer::Reply{200, "slow\n"};
                       }}}},
      std::nullopt, {.max_connections = 64, .deadline = std::chrono::milliseconds(300)});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  std::vector<std::thread> clients;
  for (int i = 0; i < 2; ++i) {
    clients.emplace_back([port] { (void)Exchange(port, "GET /slow HTTP/1.1\r\n\r\n"); });
  }
  ASSERT_TRUE(dra::testing::WaitFor("both handler threads busy", std::chrono::seconds(5), [&] {
                return started.load() == 2;
              }).ok());
  // Six more requests queue behind them and reach their deadline unanswered.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(StatusOf(Exchange(port, "GET /slow HTTP/1.1\r\n\r\n")), -1);
  }
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  for (auto& t : clients) t.join();
  // A request after them is served; the six queued ones never ran.
  std::string last = Exchange(port, "GET /slow HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusOf(last), 200) << last;
  EXPECT_EQ(started.load(), 3);
}

// Handler work has a bound: with both handler threads stuck and the queue
// full of work for connections that have ended, a newcomer gets 503 at once
// instead of waiting behind it until its deadline.
TEST_F(EndpointLimitsTest, FullHandlerBacklogIs503AtOnce) {
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> started{0};
  auto server = EndpointServer::StartRoutes(
      "127.0.0.1:0", {{"/slow", {[&](const EndpointServer::Request&) {
                         ++started;
                         std::unique_lock lock(mu);
                         cv.wait_for(lock, std::chrono::seconds(10), [&] { return release; });
                         return EndpointServer::Reply{200, "slow\n"};
                       }}}},
      std::nullopt, {.max_connections = 4, .deadline = std::chrono::milliseconds(500)});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  int port = (*server)->port();
  std::vector<std::thread> clients;
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back([port] { (void)Exchange(port, "GET /slow HTTP/1.1\r\n\r\n"); });
  }
  ASSERT_TRUE(dra::testing::WaitFor("both handler threads busy", std::chrono::seconds(5), [&] {
                return started.load() == 2;
              }).ok());
  for (auto& t : clients) t.join();  // all four cut at their deadline; two still queued
  auto start = std::chrono::steady_clock::now();
  std::string busy = Exchange(port, "GET /slow HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusOf(busy), 503) << busy;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(400));
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  EXPECT_TRUE(dra::testing::WaitFor("a slow request served again", std::chrono::seconds(5), [&] {
                return StatusOf(Exchange(port, "GET /slow HTTP/1.1\r\n\r\n")) == 200;
              }).ok());
}

// A caller the route refuses from its head is answered at once: the server
// neither waits for nor reads the body it announced.
TEST_F(EndpointLimitsTest, RefusedHeadIsAnsweredWithoutReadingTheBody) {
  std::atomic<int> handled{0};
  EndpointServer::Route hook{[&](const EndpointServer::Request& request) {
                               ++handled;
                               return EndpointServer::Reply{200, request.body};
                             },
                             {"POST"},
                             4 << 20};
  hook.admit_head = [](const EndpointServer::Request& head) -> std::optional<EndpointReply> {
    if (head.authorization == "Bearer ok") return std::nullopt;
    return EndpointRouter::Error(401, "no\n");
  };
  auto server =
      EndpointServer::StartRoutes("127.0.0.1:0", {{"/hook", hook}}, std::nullopt,
                                  {.max_connections = 64, .deadline = std::chrono::seconds(5)});
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto start = std::chrono::steady_clock::now();
  std::string refused =
      Exchange((*server)->port(), "POST /hook HTTP/1.1\r\nContent-Length: 4194304\r\n\r\n",
               std::chrono::seconds(3));
  EXPECT_EQ(StatusOf(refused), 401) << refused;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  std::string admitted = Exchange((*server)->port(),
                                  "POST /hook HTTP/1.1\r\nAuthorization: Bearer ok\r\n"
                                  "Content-Length: 5\r\n\r\nhello");
  EXPECT_EQ(StatusOf(admitted), 200) << admitted;
  EXPECT_EQ(admitted.substr(admitted.size() - 5), "hello");
  EXPECT_EQ(handled.load(), 1);
}

}  // namespace
}  // namespace kube
