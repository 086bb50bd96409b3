#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "controller/alerts/AlertMetrics.h"
#include "controller/alerts/AlertReceiver.h"
#include "src/base/LogThrottle.h"
#include "src/base/Status.h"
#include "src/http/EndpointRouter.h"

namespace dra::alerts {

// POST /alertmanager: the HTTP face of AlertReceiver. Every request is
// authorized from its head, before any body byte is read (the bearer
// token's user must be allowed to "post" the non-resource URL
// /alertmanager, a right that grants nothing on the API server): 401
// without a valid token, 403 without the right, 429 over the review rate;
// then 415 unless the body is declared application/json, 400 for a body
// that is not an Alertmanager version 4 payload (nothing written), 503 when
// the API server did not take a write (Alertmanager retries), else 200 with
// what became of each alert as JSON. Thread-safe.
class AlertWebhook {
 public:
  static constexpr const char* kPath = "/alertmanager";
  // The SubjectAccessReview's question: verb "post" on the non-resource URL kPath.
  static constexpr const char* kVerb = "post";
  // Alertmanager sends every alert of a group in one notification.
  static constexpr size_t kMaxBodyBytes = 4 << 20;

  // `authorize` gets the request's head (Authorization header, peer); its
  // code decides the status (kube::RequestAuthorizer::HttpStatusFor).
  using Authorize = std::function<kube::Status(const kube::EndpointRequest&)>;

  AlertWebhook(Authorize authorize, std::shared_ptr<AlertReceiver> receiver,
               std::shared_ptr<AlertMetrics> metrics);

  // The whole request: Admit, then HandleAdmitted.
  kube::EndpointReply Handle(const kube::EndpointRequest& request);
  // From the head alone: a refusal (401, 403, 429, 415, 500), or nullopt.
  std::optional<kube::EndpointReply> Admit(const kube::EndpointRequest& head);
  // The payload of a request Admit let on.
  kube::EndpointReply HandleAdmitted(const kube::EndpointRequest& request);
  // The route to serve at kPath (exactly; POST only; Admit before the body
  // is read; bodies up to kMaxBodyBytes).
  kube::EndpointRoute Route(std::shared_ptr<AlertWebhook> self) const;

 private:
  kube::EndpointReply Answer(int status, std::string body, bool json = false);

  Authorize authorize_;
  std::shared_ptr<AlertReceiver> receiver_;
  std::shared_ptr<AlertMetrics> metrics_;
  kube::LogThrottle refusals_;
};

}  // namespace dra::alerts
