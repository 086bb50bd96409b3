#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "src/auth/ServingCertificate.h"
#include "src/http/EndpointServer.h"
#include "src/http/HttpTransport.h"
#include "tests/support/RawHttpClient.h"
#include "tests/support/TestTime.h"

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
  EXPECT_NE(reply->body.find("kaput"), std::string::npos);
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

TEST(HttpTransportTest, ConnectionRefusedIsUnavailable) {
  auto server = EndpointServer::Start("127.0.0.1:0", {});
  ASSERT_TRUE(server.ok());
  int port = (*server)->port();
  server->reset();  // nothing listens on the port any more
  auto reply = Get(port, "/");
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.status().code(), StatusCode::kUnavailable);
}

TEST(HttpTransportTest, RejectsServerWithoutScheme) {
  RestConfig config;
  config.server = "127.0.0.1:6443";
  auto transport = HttpTransport::Create(config);
  ASSERT_FALSE(transport.ok());
  EXPECT_NE(transport.status().message().find("https://"), std::string::npos);
}

TEST(HttpTransportTest, RejectsGarbageCertificateAuthority) {
  RestConfig config;
  config.server = "https://127.0.0.1:1";
  config.ca_pem = "not a certificate";
  auto transport = HttpTransport::Create(config);
  ASSERT_FALSE(transport.ok());
  EXPECT_NE(transport.status().message().find("certificate-authority"), std::string::npos);
}

}  // namespace
}  // namespace kube
