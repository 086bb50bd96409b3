#include <gtest/gtest.h>

#include <atomic>

#include "src/http/EndpointServer.h"
#include "src/http/HttpTransport.h"

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

TEST(EndpointServerTest, PortInUseIsAnError) {
  auto first = EndpointServer::Start("127.0.0.1:0", {});
  ASSERT_TRUE(first.ok());
  auto second = EndpointServer::Start("127.0.0.1:" + std::to_string((*first)->port()), {});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
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
