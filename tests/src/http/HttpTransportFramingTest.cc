#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "src/http/HttpTransport.h"
#include "tests/support/HostileTcpServer.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TlsEchoServer.h"

// How the transport reads framing a server should not send, and when it
// sends a request twice. Each case names what a hand-written reader got
// wrong; every one of them goes through HttpTransport::Create only.
namespace kube {
namespace {

using namespace std::chrono_literals;
using dra::testing::HostileTcpServer;
using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using dra::testing::StreamStep;
using dra::testing::TempDir;
using dra::testing::TestCertificates;
using dra::testing::TlsEchoServer;

RestConfig ConfigFor(const std::string& server) {
  RestConfig config;
  config.server = server;
  config.request_timeout = 5s;
  return config;
}

HttpRequest Request(std::string method, std::string path) {
  HttpRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
  if (request.method == "POST") request.body = "{}";
  return request;
}

// Answers every connection with `response` and then waits for the client.
Result<HttpResponse> Answered(const std::string& response, RestConfig config = {}) {
  auto server = HostileTcpServer::Start({response, "", 0, false});
  if (!server.ok()) return server.status();
  RestConfig with_server = ConfigFor((*server)->Url());
  if (config.max_response_header_bytes != RestConfig().max_response_header_bytes) {
    with_server.max_response_header_bytes = config.max_response_header_bytes;
  }
  auto transport = HttpTransport::Create(with_server);
  if (!transport.ok()) return transport.status();
  return (*transport)->Send(Request("GET", "/api"));
}

TEST(HttpTransportFramingTest, ATransferCodingEndingInChunkedIsNotChunked) {
  auto response =
      Answered("HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
  ASSERT_FALSE(response.ok()) << "decoded as chunked, body \"" << response->body << "\"";
  EXPECT_NE(response.status().message().find("Transfer-Encoding"), std::string::npos)
      << response.status().ToString();
}

TEST(HttpTransportFramingTest, ContentLengthWithTransferEncodingIsRefused) {
  auto response = Answered(
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n0\r\n\r\n");
  ASSERT_FALSE(response.ok()) << "accepted a response framed two ways";
  EXPECT_EQ(response.status().code(), StatusCode::kUnavailable) << response.status().ToString();
}

TEST(HttpTransportFramingTest, ANegativeStatusIsRefused) {
  auto response = Answered("HTTP/1.1 -12 Odd\r\nContent-Length: 0\r\n\r\n");
  ASSERT_FALSE(response.ok()) << "accepted status " << response->status;
}

TEST(HttpTransportFramingTest, TrailersCountAgainstTheHeaderCap) {
  auto flood = HostileTcpServer::Start(
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n",
       "X-Trailer: " + std::string(100, 't') + "\r\n", 64u << 20, true});
  ASSERT_TRUE(flood.ok());
  RestConfig config = ConfigFor((*flood)->Url());
  config.request_timeout = 20s;
  config.max_response_header_bytes = 16 * 1024;
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok());
  auto response = (*transport)->Send(Request("GET", "/api"));
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.status().message().find("max_response_header_bytes"), std::string::npos)
      << response.status().ToString();
}

// A request that went out on a kept-alive connection the server then closed
// without an answer may have been acted on: a POST is not sent again, as Go's
// net/http does not.
TEST(HttpTransportFramingTest, APostIsNotSentAgainAfterAKeptAliveConnectionDied) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  (*server)->AddRoute(Route::Exact("GET", "/warm"), {ScriptedResponse::Json(200, "{}")});
  (*server)->AddRoute(Route::Exact("POST", "/create"),
                      {ScriptedResponse::Raw({StreamStep::CloseAbruptly()})});
  auto transport = HttpTransport::Create(ConfigFor((*server)->Url()));
  ASSERT_TRUE(transport.ok());
  ASSERT_TRUE((*transport)->Send(Request("GET", "/warm")).ok());
  auto response = (*transport)->Send(Request("POST", "/create"));
  EXPECT_FALSE(response.ok());
  EXPECT_FALSE((*server)->WaitForRequests(3, 1s));
  EXPECT_EQ((*server)->Requests().size(), 2u) << "the POST went out twice";
}

TEST(HttpTransportFramingTest, AGetIsSentAgainAfterAKeptAliveConnectionDied) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  (*server)->AddRoute(Route::Exact("GET", "/warm"), {ScriptedResponse::Json(200, "{}")});
  (*server)->AddRoute(Route::Exact("GET", "/flaky").Once(),
                      {ScriptedResponse::Raw({StreamStep::CloseAbruptly()})});
  (*server)->AddRoute(Route::Exact("GET", "/flaky"), {ScriptedResponse::Json(200, "{}")});
  auto transport = HttpTransport::Create(ConfigFor((*server)->Url()));
  ASSERT_TRUE(transport.ok());
  ASSERT_TRUE((*transport)->Send(Request("GET", "/warm")).ok());
  auto response = (*transport)->Send(Request("GET", "/flaky"));
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 200);
}

// The server answered as if keeping the connection alive, then closed it
// while it sat in the pool: the next request, even a POST, which is never
// sent twice, goes out on a new connection instead of failing.
TEST(HttpTransportFramingTest, APooledConnectionTheServerClosedIsNotUsed) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  (*server)->AddRoute(Route::Exact("GET", "/warm"),
                      {ScriptedResponse::Raw({StreamStep::RawBytes(
                          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")})});
  (*server)->AddRoute(Route::Exact("POST", "/create"), {ScriptedResponse::Json(201, "{}")});
  auto transport = HttpTransport::Create(ConfigFor((*server)->Url()));
  ASSERT_TRUE(transport.ok());
  ASSERT_TRUE((*transport)->Send(Request("GET", "/warm")).ok());
  ASSERT_TRUE((*server)->WaitForOpenConnections(0, 5s));
  auto response = (*transport)->Send(Request("POST", "/create"));
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ((*server)->AcceptedConnections(), 2);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class HttpTransportTlsFramingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TestCertificates pki(dir_.path().string());
    auto ca = pki.MakeCa("ca");
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    ca_ = *ca;
    auto server = pki.MakeLeaf(ca_, "server", "server", "IP:127.0.0.1");
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = *server;
  }
  Result<HttpResponse> GetFrom(const TlsEchoServer& server, const std::string& tls_name = "") {
    RestConfig config = ConfigFor(server.Url());
    config.ca_pem = ReadAll(ca_.cert);
    config.tls_server_name = tls_name;
    auto transport = HttpTransport::Create(config);
    if (!transport.ok()) return transport.status();
    return (*transport)->Send(Request("GET", "/version"));
  }

  TempDir dir_;
  TestCertificates::Pair ca_, server_;
};

TEST_F(HttpTransportTlsFramingTest, AnUnframedBodyEndsWithCloseNotify) {
  auto server = TlsEchoServer::Start(server_.cert, server_.key);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  (*server)->SetEnding(TlsEchoServer::Ending::kUnframed);
  auto response = GetFrom(**server);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->body, "none");
}

// Without close_notify the end of the connection may be an attacker's: an
// unframed body cut there is not taken as complete.
TEST_F(HttpTransportTlsFramingTest, AnUnframedBodyCutWithoutCloseNotifyFails) {
  auto server = TlsEchoServer::Start(server_.cert, server_.key);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  (*server)->SetEnding(TlsEchoServer::Ending::kUnframedTruncated);
  auto response = GetFrom(**server);
  ASSERT_FALSE(response.ok()) << "accepted the cut body \"" << response->body << "\"";
}

// A certificate that names the server only in its common name is refused,
// as Go refuses it: only subject alternative names count.
TEST_F(HttpTransportTlsFramingTest, TheCommonNameIsNotAServerName) {
  TestCertificates pki(dir_.path().string());
  auto legacy = pki.MakeLeaf(ca_, "legacy", "api.example", TestCertificates::kNoSan);
  ASSERT_TRUE(legacy.ok()) << legacy.status().ToString();
  auto server = TlsEchoServer::Start(legacy->cert, legacy->key);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto response = GetFrom(**server, "api.example");
  ASSERT_FALSE(response.ok()) << "trusted a certificate by its common name";
  EXPECT_NE(response.status().message().find("certificate"), std::string::npos)
      << response.status().ToString();
}

}  // namespace
}  // namespace kube
