#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "src/http/EndpointRouter.h"

namespace kube {
namespace {

EndpointRoute Answering(std::string text, bool exact) {
  EndpointRoute route;
  route.handler = [text](const EndpointRequest&) { return EndpointReply{200, text}; };
  route.exact = exact;
  return route;
}

TEST(EndpointRouterTest, ExactRouteServesItsOwnPathOnly) {
  EndpointRouter router({{"/metrics", Answering("m", true)}, {"/debug", Answering("d", false)}});
  EXPECT_EQ(router.ServeRaw("GET /metrics HTTP/1.1\r\n\r\n").status, 200);
  EXPECT_EQ(router.ServeRaw("GET /metrics?x=1 HTTP/1.1\r\n\r\n").status, 200);
  EXPECT_EQ(router.ServeRaw("GET /metrics/ HTTP/1.1\r\n\r\n").status, 404);
  EXPECT_EQ(router.ServeRaw("GET /metrics/a HTTP/1.1\r\n\r\n").status, 404);
  EXPECT_EQ(router.ServeRaw("GET /metrics/\xff\xfe HTTP/1.1\r\n\r\n").status, 404);
  EXPECT_EQ(router.ServeRaw("GET /debug/a HTTP/1.1\r\n\r\n").status, 200);
}

// What a handler threw may carry the client's own bytes or internals:
// logged, never sent.
TEST(EndpointRouterTest, HandlerExceptionIs500WithoutItsText) {
  EndpointRoute route;
  route.handler = [](const EndpointRequest& request) -> EndpointReply {
    throw std::runtime_error("secret detail of " + request.path);
  };
  EndpointRouter router({{"/boom", route}});
  auto reply = router.ServeRaw("GET /boom HTTP/1.1\r\n\r\n");
  EXPECT_EQ(reply.status, 500);
  EXPECT_EQ(reply.body.find("secret"), std::string::npos) << reply.body;
}

TEST(EndpointRouterTest, HeadAdmissionRefusesBeforeTheHandler) {
  std::atomic<int> handled{0};
  EndpointRoute route;
  route.handler = [&](const EndpointRequest&) {
    ++handled;
    return EndpointReply{200, "in"};
  };
  route.methods = {"POST"};
  route.max_body_bytes = 1024;
  route.admit_head = [](const EndpointRequest& head) -> std::optional<EndpointReply> {
    if (head.authorization == "Bearer ok") return std::nullopt;
    return EndpointRouter::Error(401, "who are you\n");
  };
  EndpointRouter router({{"/hook", route}});
  auto refused = router.ServeRaw("POST /hook HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(handled.load(), 0);
  auto admitted = router.ServeRaw(
      "POST /hook HTTP/1.1\r\nAuthorization: Bearer ok\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(admitted.status, 200);
  EXPECT_EQ(handled.load(), 1);
}

TEST(EndpointRouterTest, ThrowingAdmissionIs500WithoutItsText) {
  EndpointRoute route = Answering("x", true);
  route.admit_head = [](const EndpointRequest&) -> std::optional<EndpointReply> {
    throw std::runtime_error("secret");
  };
  EndpointRouter router({{"/x", route}});
  auto reply = router.ServeRaw("GET /x HTTP/1.1\r\n\r\n");
  EXPECT_EQ(reply.status, 500);
  EXPECT_EQ(reply.body.find("secret"), std::string::npos);
}

}  // namespace
}  // namespace kube
