#include "src/auth/TokenReviewer.h"

#include <nlohmann/json.hpp>

namespace kube {
namespace {

constexpr const char* kPath = "/apis/authentication.k8s.io/v1/tokenreviews";

UserInfo UserFromJson(const nlohmann::json& user) {
  UserInfo info;
  info.username = user.value("username", "");
  info.uid = user.value("uid", "");
  if (auto groups = user.find("groups"); groups != user.end() && groups->is_array()) {
    for (const auto& group : *groups) {
      if (group.is_string()) info.groups.push_back(group.get<std::string>());
    }
  }
  if (auto extra = user.find("extra"); extra != user.end() && extra->is_object()) {
    for (const auto& [key, values] : extra->items()) {
      if (!values.is_array()) continue;
      for (const auto& value : values) {
        if (value.is_string()) info.extra[key].push_back(value.get<std::string>());
      }
    }
  }
  return info;
}

// The answer's audiences include one the review asked for.
bool ForOneOf(const nlohmann::json& status, const std::vector<std::string>& audiences) {
  auto answered = status.find("audiences");
  if (answered == status.end() || !answered->is_array()) return false;
  for (const auto& audience : *answered) {
    if (!audience.is_string()) continue;
    for (const auto& wanted : audiences) {
      if (audience.get_ref<const std::string&>() == wanted) return true;
    }
  }
  return false;
}

Result<UserInfo> ParseReview(const std::string& body, const std::vector<std::string>& audiences) {
  try {
    auto review = nlohmann::json::parse(body);
    const auto& status = review.at("status");
    if (!status.value("authenticated", false)) {
      std::string error = status.value("error", "");
      return Status(StatusCode::kUnauthorized, error.empty() ? "token not authenticated"
                                                             : "token not authenticated: " + error);
    }
    if (!audiences.empty() && !ForOneOf(status, audiences)) {
      return Status(StatusCode::kUnauthorized, "token not minted for this server's audiences");
    }
    UserInfo user = UserFromJson(status.value("user", nlohmann::json::object()));
    if (user.username.empty()) {
      return Status(StatusCode::kUnauthorized, "TokenReview authenticated no username");
    }
    return user;
  } catch (const nlohmann::json::exception& e) {
    return Status(StatusCode::kParseError, std::string("TokenReview response: ") + e.what());
  }
}

// The review itself failed: never the caller's 401 or 403, even when the API
// server refused *us* (no RBAC for TokenReviews, expired credentials).
Status ReviewFailed(const Status& failure) {
  return Status(StatusCode::kUnavailable, "TokenReview failed: " + failure.ToString());
}

}  // namespace

TokenReviewer::TokenReviewer(std::shared_ptr<RestClient> client, std::vector<std::string> audiences)
    : client_(std::move(client)), audiences_(std::move(audiences)) {}

Result<UserInfo> TokenReviewer::Review(const std::string& token) {
  nlohmann::json review = {{"apiVersion", "authentication.k8s.io/v1"},
                           {"kind", "TokenReview"},
                           {"spec", {{"token", token}}}};
  if (!audiences_.empty()) review["spec"]["audiences"] = audiences_;
  HttpRequest request;
  request.method = "POST";
  request.path = kPath;
  request.body = review.dump();
  request.content_type = "application/json";
  auto response = client_->Do(request);
  if (!response.ok()) return ReviewFailed(response.status());
  return ParseReview(response->body, audiences_);
}

}  // namespace kube
