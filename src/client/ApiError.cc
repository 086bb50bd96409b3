#include "src/client/ApiError.h"

#include <nlohmann/json.hpp>

namespace kube {
namespace {

StatusCode FromReason(const std::string& reason) {
  if (reason == "NotFound") return StatusCode::kNotFound;
  if (reason == "AlreadyExists") return StatusCode::kAlreadyExists;
  if (reason == "Conflict") return StatusCode::kConflict;
  if (reason == "Gone" || reason == "Expired") return StatusCode::kGone;
  if (reason == "TooManyRequests") return StatusCode::kTooManyRequests;
  if (reason == "Forbidden") return StatusCode::kForbidden;
  if (reason == "Unauthorized") return StatusCode::kUnauthorized;
  if (reason == "Invalid") return StatusCode::kInvalid;
  if (reason == "BadRequest") return StatusCode::kInvalidArgument;
  if (reason == "Timeout" || reason == "ServerTimeout") return StatusCode::kTimeout;
  if (reason == "ServiceUnavailable") return StatusCode::kUnavailable;
  return StatusCode::kInternal;
}

StatusCode FromHttp(int code) {
  switch (code) {
    case 400:
      return StatusCode::kInvalidArgument;
    case 401:
      return StatusCode::kUnauthorized;
    case 403:
      return StatusCode::kForbidden;
    case 404:
      return StatusCode::kNotFound;
    case 409:
      return StatusCode::kConflict;
    case 410:
      return StatusCode::kGone;
    case 422:
      return StatusCode::kInvalid;
    case 429:
      return StatusCode::kTooManyRequests;
    case 503:
      return StatusCode::kUnavailable;
    case 504:
      return StatusCode::kTimeout;
    default:
      return StatusCode::kInternal;
  }
}

}  // namespace

Status ApiErrorFromResponse(const HttpResponse& response, const std::string& what) {
  StatusCode code = FromHttp(response.status);
  std::string message;
  auto body = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_object() && body.value("kind", "") == "Status") {
    std::string reason = body.value("reason", "");
    if (!reason.empty()) code = FromReason(reason);
    message = body.value("message", "");
    const auto& causes = body.value("/details/causes"_json_pointer, nlohmann::json::array());
    for (const auto& cause : causes) {
      if (!cause.is_object()) continue;
      std::string field = cause.value("field", "");
      std::string text = cause.value("message", "");
      if (!field.empty() && message.find(field) == std::string::npos)
        message += "; " + field + ": " + text;
    }
  }
  if (message.empty()) {
    message = "HTTP " + std::to_string(response.status);
    if (!response.body.empty()) message += ": " + response.body.substr(0, 200);
  }
  return Status(code, what + ": " + message);
}

}  // namespace kube
