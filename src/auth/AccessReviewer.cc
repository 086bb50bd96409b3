#include "src/auth/AccessReviewer.h"

#include <nlohmann/json.hpp>

namespace kube {
namespace {

constexpr const char* kPath = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

nlohmann::json ReviewFor(const UserInfo& user, const char* attributes_field,
                         nlohmann::json attributes) {
  nlohmann::json spec = {{"user", user.username}, {attributes_field, std::move(attributes)}};
  if (!user.uid.empty()) spec["uid"] = user.uid;
  if (!user.groups.empty()) spec["groups"] = user.groups;
  if (!user.extra.empty()) spec["extra"] = user.extra;
  return {{"apiVersion", "authorization.k8s.io/v1"},
          {"kind", "SubjectAccessReview"},
          {"spec", std::move(spec)}};
}

Result<AccessDecision> ParseReview(const std::string& body) {
  try {
    auto review = nlohmann::json::parse(body);
    const auto& status = review.at("status");
    AccessDecision decision;
    // "denied" short-circuits; without "allowed" there is no permission either.
    decision.allowed = status.value("allowed", false) && !status.value("denied", false);
    decision.reason = status.value("reason", "");
    std::string error = status.value("evaluationError", "");
    if (!decision.allowed && !error.empty()) {
      decision.reason += (decision.reason.empty() ? "" : "; ") + error;
    }
    return decision;
  } catch (const nlohmann::json::exception& e) {
    return Status(StatusCode::kParseError,
                  std::string("SubjectAccessReview response: ") + e.what());
  }
}

// The review itself failed: never the caller's 401 or 403, even when the API
// server refused *us* (no RBAC for SubjectAccessReviews, expired credentials).
Status ReviewFailed(const Status& failure) {
  return Status(StatusCode::kUnavailable, "SubjectAccessReview failed: " + failure.ToString());
}

}  // namespace

AccessReviewer::AccessReviewer(std::shared_ptr<RestClient> client) : client_(std::move(client)) {}

std::string ResourceAttributes::Describe() const {
  std::string text = verb + " " + resource + (group.empty() ? "" : "." + group);
  if (!name.empty()) text += " " + name;
  if (!namespace_.empty()) text += " in namespace " + namespace_;
  return text;
}

Result<AccessDecision> AccessReviewer::ReviewNonResource(const UserInfo& user,
                                                         const std::string& verb,
                                                         const std::string& path) {
  return Review(user, "nonResourceAttributes", {{"path", path}, {"verb", verb}});
}

Result<AccessDecision> AccessReviewer::ReviewResource(const UserInfo& user,
                                                      const ResourceAttributes& attributes) {
  nlohmann::json fields = {
      {"verb", attributes.verb}, {"group", attributes.group}, {"resource", attributes.resource}};
  if (!attributes.namespace_.empty()) fields["namespace"] = attributes.namespace_;
  if (!attributes.name.empty()) fields["name"] = attributes.name;
  return Review(user, "resourceAttributes", std::move(fields));
}

Result<AccessDecision> AccessReviewer::Review(const UserInfo& user, const char* attributes_field,
                                              nlohmann::json attributes) {
  HttpRequest request;
  request.method = "POST";
  request.path = kPath;
  // A path is outside text: bytes that are not UTF-8 are replaced, not thrown over.
  request.body = ReviewFor(user, attributes_field, std::move(attributes))
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  request.content_type = "application/json";
  auto response = client_->Do(request);
  if (!response.ok()) return ReviewFailed(response.status());
  return ParseReview(response->body);
}

}  // namespace kube
