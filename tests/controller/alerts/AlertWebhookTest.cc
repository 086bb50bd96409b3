#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <nlohmann/json.hpp>

#include "controller/alerts/AlertWebhook.h"

namespace dra::alerts {
namespace {

// Every DeviceHealth write succeeds; nothing exists before.
class CountingStore : public AlertHealthStore {
 public:
  kube::Result<StoredAlerts> Read(const std::string&) override { return StoredAlerts{}; }
  kube::Result<health::SourcedWrite> Write(const health::SourcedHealth&) override {
    ++writes;
    return health::SourcedWrite::kCreated;
  }
  int writes = 0;
};

std::string Notification() {
  return nlohmann::json({{"version", "4"},
                         {"status", "firing"},
                         {"alerts",
                          {{{"status", "firing"},
                            {"labels", {{"alertname", "GPUXidCritical"}, {"UUID", "GPU-1"}}},
                            {"startsAt", "2026-12-05T07:31:10Z"},
                            {"fingerprint", "f"}}}}})
      .dump();
}

class AlertWebhookTest : public ::testing::Test {
 protected:
  AlertWebhookTest() {
    AlertReceiver::Inputs inputs;
    inputs.count_devices = [](const GpuAlert&) { return size_t{1}; };
    inputs.store = store_;
    inputs.metrics = metrics_;
    auto authorize = [this](const kube::EndpointRequest& head) {
      ++authorizations_;
      if (head.authorization == "Bearer good") return kube::Status::Ok();
      if (head.authorization == "Bearer weak") {
        return kube::Status(kube::StatusCode::kForbidden, "no right");
      }
      return kube::Status(kube::StatusCode::kUnauthorized, "no bearer token");
    };
    webhook_ = std::make_shared<AlertWebhook>(
        authorize, std::make_shared<AlertReceiver>(std::move(inputs)), metrics_);
    router_ = std::make_unique<kube::EndpointRouter>(std::map<std::string, kube::EndpointRoute>{
        {AlertWebhook::kPath, webhook_->Route(webhook_)}});
  }

  kube::EndpointReply Post(const std::string& token, const std::string& body) {
    std::string raw =
        "POST /alertmanager HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    if (!token.empty()) raw += "Authorization: Bearer " + token + "\r\n";
    raw += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return router_->ServeRaw(raw);
  }

  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::shared_ptr<AlertMetrics> metrics_ = std::make_shared<AlertMetrics>(registry_);
  std::shared_ptr<CountingStore> store_ = std::make_shared<CountingStore>();
  std::shared_ptr<AlertWebhook> webhook_;
  std::unique_ptr<kube::EndpointRouter> router_;
  int authorizations_ = 0;
};

TEST_F(AlertWebhookTest, AuthorizedNotificationIsAppliedAndAnswered) {
  auto reply = Post("good", Notification());
  EXPECT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.content_type, "application/json");
  auto body = nlohmann::json::parse(reply.body);
  EXPECT_EQ(body["alerts"][0]["outcome"], "applied");
  EXPECT_EQ(store_->writes, 1);
  EXPECT_NE(prometheus::TextSerializer()
                .Serialize(registry_->Collect())
                .find(R"(dra_controller_alertmanager_requests_total{code="200"} 1)"),
            std::string::npos);
}

TEST_F(AlertWebhookTest, NoTokenIs401AndNoRightIs403BeforeTheBodyIsRead) {
  EXPECT_EQ(Post("", Notification()).status, 401);
  EXPECT_EQ(Post("forged", "not even json").status, 401);
  auto forbidden = Post("weak", Notification());
  EXPECT_EQ(forbidden.status, 403);
  EXPECT_NE(forbidden.body.find("no right"), std::string::npos);
  EXPECT_EQ(store_->writes, 0);
}

TEST_F(AlertWebhookTest, MalformedPayloadIs400AndWritesNothing) {
  for (const std::string body : {"", "{", R"({"version":"4"})", R"({"version":"3","alerts":[]})",
                                 R"({"version":"4","alerts":[{"status":"maybe","labels":{}}]})"}) {
    auto reply = Post("good", body);
    EXPECT_EQ(reply.status, 400) << body;
    EXPECT_NE(reply.body.find("Alertmanager payload"), std::string::npos) << reply.body;
  }
  EXPECT_EQ(store_->writes, 0);
}

TEST_F(AlertWebhookTest, OnlyPostAndBoundedBodies) {
  EXPECT_EQ(router_->ServeRaw("GET /alertmanager HTTP/1.1\r\nHost: x\r\n\r\n").status, 405);
  std::string huge(AlertWebhook::kMaxBodyBytes + 1, 'x');
  EXPECT_EQ(Post("good", huge).status, 413);
  EXPECT_EQ(
      router_->ServeRaw("POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").status,
      404);
}

// Alertmanager sends application/json; anything else is refused before
// the body is read, and only after the caller was authorized.
TEST_F(AlertWebhookTest, BodyThatIsNotDeclaredJsonIs415) {
  auto post = [this](const std::string& token, const std::string& content_type) {
    std::string raw = "POST /alertmanager HTTP/1.1\r\nHost: x\r\n";
    if (!content_type.empty()) raw += "Content-Type: " + content_type + "\r\n";
    if (!token.empty()) raw += "Authorization: Bearer " + token + "\r\n";
    std::string body = Notification();
    raw += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return router_->ServeRaw(raw).status;
  };
  EXPECT_EQ(post("good", "text/plain"), 415);
  EXPECT_EQ(post("good", ""), 415);
  EXPECT_EQ(post("good", "application/jsonx"), 415);
  EXPECT_EQ(post("forged", "text/plain"), 401);
  EXPECT_EQ(post("good", "Application/JSON; charset=utf-8"), 200);
  EXPECT_EQ(store_->writes, 1);
}

// The route asks its authorizer from the head: the body is never read for
// a caller without the right, and only /alertmanager itself is served.
TEST_F(AlertWebhookTest, RouteAuthorizesFromTheHeadOnItsExactPath) {
  auto route = webhook_->Route(webhook_);
  ASSERT_TRUE(route.admit_head);
  EXPECT_TRUE(route.exact);
  kube::EndpointRequest head;
  head.method = "POST";
  head.path = AlertWebhook::kPath;
  head.authorization = "Bearer forged";
  auto refusal = route.admit_head(head);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->status, 401);
  head.authorization = "Bearer good";
  head.content_type = "application/json";
  EXPECT_FALSE(route.admit_head(head).has_value());
  EXPECT_EQ(router_
                ->ServeRaw("POST /alertmanager/x HTTP/1.1\r\nHost: x\r\nAuthorization: "
                           "Bearer good\r\nContent-Length: 0\r\n\r\n")
                .status,
            404);
  EXPECT_EQ(Post("good", Notification()).status, 200);
  EXPECT_EQ(authorizations_, 3) << "one authorization per request, from the head";
}

}  // namespace
}  // namespace dra::alerts
