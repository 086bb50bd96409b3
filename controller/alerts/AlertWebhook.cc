#include "controller/alerts/AlertWebhook.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "src/auth/RequestAuthorizer.h"
#include "src/base/AsciiText.h"
#include "src/base/QuoteForMessage.h"

namespace dra::alerts {
namespace {

// How often refused or failed requests are logged at most.
constexpr std::chrono::seconds kRefusalLogInterval{10};

std::string Describe(const std::vector<AlertOutcome>& outcomes) {
  nlohmann::json alerts = nlohmann::json::array();
  for (const auto& outcome : outcomes) {
    nlohmann::json entry = {{"outcome", outcome.outcome}};
    if (!outcome.health.empty()) entry["deviceHealth"] = outcome.health;
    if (!outcome.detail.empty()) entry["detail"] = outcome.detail;
    alerts.push_back(std::move(entry));
  }
  return nlohmann::json({{"alerts", std::move(alerts)}}).dump() + "\n";
}

// "application/json", any case, with or without parameters ("; charset=utf-8").
bool IsJson(const std::string& content_type) {
  std::string_view media(content_type);
  media = media.substr(0, media.find(';'));
  return kube::AsciiText::Lower(kube::AsciiText::Trim(media)) == "application/json";
}

}  // namespace

AlertWebhook::AlertWebhook(Authorize authorize, std::shared_ptr<AlertReceiver> receiver,
                           std::shared_ptr<AlertMetrics> metrics)
    : authorize_(std::move(authorize)),
      receiver_(std::move(receiver)),
      metrics_(std::move(metrics)),
      refusals_(kRefusalLogInterval) {}

kube::EndpointReply AlertWebhook::Handle(const kube::EndpointRequest& request) {
  if (auto refusal = Admit(request)) return *refusal;
  return HandleAdmitted(request);
}

std::optional<kube::EndpointReply> AlertWebhook::Admit(const kube::EndpointRequest& head) {
  kube::Status verdict = authorize_(head);
  if (!verdict.ok()) {
    int status = kube::RequestAuthorizer::HttpStatusFor(verdict);
    if (auto suppressed = refusals_.Admit()) {
      spdlog::warn("Alertmanager webhook: {} from {} ({}; {} more not logged)", status,
                   kube::QuoteForMessage(head.peer), verdict.ToString(), *suppressed);
    }
    return Answer(status, verdict.message() + "\n");
  }
  if (!IsJson(head.content_type)) {
    return Answer(415, "the body must be application/json (got " +
                           kube::QuoteForMessage(head.content_type) + ")\n");
  }
  return std::nullopt;
}

kube::EndpointReply AlertWebhook::HandleAdmitted(const kube::EndpointRequest& request) {
  auto payload = AlertmanagerPayload::Parse(request.body);
  if (!payload.ok()) return Answer(400, payload.status().message() + "\n");
  auto outcomes = receiver_->Receive(*payload);
  if (!outcomes.ok()) {
    spdlog::warn("Alertmanager webhook: {}; answering 503 so Alertmanager retries",
                 outcomes.status().ToString());
    return Answer(503, outcomes.status().message() + "\n");
  }
  return Answer(200, Describe(*outcomes), true);
}

kube::EndpointRoute AlertWebhook::Route(std::shared_ptr<AlertWebhook> self) const {
  kube::EndpointRoute route;
  route.handler = [self](const kube::EndpointRequest& request) {
    return self->HandleAdmitted(request);
  };
  route.admit_head = [self](const kube::EndpointRequest& head) { return self->Admit(head); };
  route.exact = true;
  route.methods = {"POST"};
  route.max_body_bytes = kMaxBodyBytes;
  return route;
}

kube::EndpointReply AlertWebhook::Answer(int status, std::string body, bool json) {
  if (metrics_) metrics_->Request(status);
  kube::EndpointReply reply{status, std::move(body)};
  if (json) reply.content_type = "application/json";
  return reply;
}

}  // namespace dra::alerts
