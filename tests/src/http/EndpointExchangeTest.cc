#include <gtest/gtest.h>

#include <map>
#include <string>

#include "src/http/EndpointExchange.h"

namespace kube {
namespace {

EndpointRoute AdmittedRoute(std::size_t max_body) {
  EndpointRoute route;
  route.handler = [](const EndpointRequest& request) { return EndpointReply{200, request.body}; };
  route.methods = {"POST"};
  route.max_body_bytes = max_body;
  route.admit_head = [](const EndpointRequest&) { return std::nullopt; };
  return route;
}

std::string Post(const std::string& body) {
  return "POST /hook HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: "
         "application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

// A route that admits from the head: the exchange stops at the head, with
// its fields and none of the body, however much of the body came with it.
TEST(EndpointExchangeTest, AdmissionComesBeforeAnyBodyByte) {
  EndpointRouter router({{"/hook", AdmittedRoute(1 << 20)}});
  EndpointExchange exchange(router);
  exchange.SetPeer("10.1.2.3");
  std::string body(100000, 'x');
  ASSERT_EQ(exchange.Feed(Post(body)), EndpointExchange::Step::kAdmitHead);
  EXPECT_EQ(exchange.request().authorization, "Bearer t");
  EXPECT_EQ(exchange.request().content_type, "application/json");
  EXPECT_EQ(exchange.request().path, "/hook");
  EXPECT_EQ(exchange.request().peer, "10.1.2.3");
  EXPECT_TRUE(exchange.request().body.empty());
  // Bytes that arrive meanwhile wait too.
  EXPECT_EQ(exchange.Feed("more"), EndpointExchange::Step::kNeedMore);
  EXPECT_TRUE(exchange.request().body.empty());
}

TEST(EndpointExchangeTest, AdmittedRequestReadsItsBodyWithinTheRouteLimit) {
  EndpointRouter router({{"/hook", AdmittedRoute(1024)}});
  std::string request = Post(std::string(1000, 'y'));
  EndpointExchange exchange(router);
  // The head and part of the body, then the rest after the admission.
  ASSERT_EQ(exchange.Feed(request.substr(0, request.size() - 10)),
            EndpointExchange::Step::kAdmitHead);
  EXPECT_EQ(exchange.Admitted(), EndpointExchange::Step::kNeedMore);
  ASSERT_EQ(exchange.Feed(request.substr(request.size() - 10)), EndpointExchange::Step::kReady);
  EXPECT_EQ(exchange.request().body, std::string(1000, 'y'));
}

TEST(EndpointExchangeTest, AdmittedChunkedBodyOverTheLimitIs413) {
  EndpointRouter router({{"/hook", AdmittedRoute(8)}});
  EndpointExchange exchange(router);
  std::string request =
      "POST /hook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" +
      std::string(16, 'z') + "\r\n0\r\n\r\n";
  ASSERT_EQ(exchange.Feed(request), EndpointExchange::Step::kAdmitHead);
  EXPECT_EQ(exchange.Admitted(), EndpointExchange::Step::kReject);
  EXPECT_EQ(exchange.rejection().status, 413);
}

TEST(EndpointExchangeTest, RequestWithoutBodyIsReadyOnAdmission) {
  EndpointRouter router({{"/hook", AdmittedRoute(8)}});
  EndpointExchange exchange(router);
  ASSERT_EQ(exchange.Feed(Post("")), EndpointExchange::Step::kAdmitHead);
  EXPECT_EQ(exchange.Admitted(), EndpointExchange::Step::kReady);
}

}  // namespace
}  // namespace kube
