#include "controller/alerts/AlertWebhook.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "src/auth/RequestAuthorizer.h"

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

}  // namespace

AlertWebhook::AlertWebhook(Authorize authorize, std::shared_ptr<AlertReceiver> receiver,
                           std::shared_ptr<AlertMetrics> metrics)
    : authorize_(std::move(authorize)),
      receiver_(std::move(receiver)),
      metrics_(std::move(metrics)),
      refusals_(kRefusalLogInterval) {}

kube::EndpointReply AlertWebhook::Handle(const kube::EndpointRequest& request) {
  kube::Status verdict = authorize_(request.authorization);
  if (!verdict.ok()) {
    int status = kube::RequestAuthorizer::HttpStatusFor(verdict);
    if (auto suppressed = refusals_.Admit()) {
      spdlog::warn("Alertmanager webhook: {} ({}; {} more not logged)", status, verdict.ToString(),
                   *suppressed);
    }
    return Answer(status, verdict.message() + "\n");
  }
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
  route.handler = [self](const kube::EndpointRequest& request) { return self->Handle(request); };
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
