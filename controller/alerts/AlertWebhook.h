#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "controller/alerts/AlertMetrics.h"
#include "controller/alerts/AlertReceiver.h"
#include "src/base/LogThrottle.h"
#include "src/base/Status.h"
#include "src/http/EndpointRouter.h"

namespace dra::alerts {

// POST /alertmanager: the HTTP face of AlertReceiver. Every request is
// authorized first (the bearer token's user must be allowed to create
// devicehealths.dra-controller.dev): 401 without a valid token, 403 without
// the right, 429 over the review rate; then 400 for a body that is not an
// Alertmanager version 4 payload (nothing written), 503 when the API server
// did not take a write (Alertmanager retries), else 200 with what became of
// each alert as JSON. Thread-safe.
class AlertWebhook {
 public:
  static constexpr const char* kPath = "/alertmanager";
  // Alertmanager sends every alert of a group in one notification.
  static constexpr size_t kMaxBodyBytes = 4 << 20;

  // `authorize` gets the Authorization header; its code decides the status
  // (kube::RequestAuthorizer::HttpStatusFor).
  using Authorize = std::function<kube::Status(const std::string&)>;

  AlertWebhook(Authorize authorize, std::shared_ptr<AlertReceiver> receiver,
               std::shared_ptr<AlertMetrics> metrics);

  kube::EndpointReply Handle(const kube::EndpointRequest& request);
  // The route to serve at kPath (POST only, bodies up to kMaxBodyBytes).
  kube::EndpointRoute Route(std::shared_ptr<AlertWebhook> self) const;

 private:
  kube::EndpointReply Answer(int status, std::string body, bool json = false);

  Authorize authorize_;
  std::shared_ptr<AlertReceiver> receiver_;
  std::shared_ptr<AlertMetrics> metrics_;
  kube::LogThrottle refusals_;
};

}  // namespace dra::alerts
