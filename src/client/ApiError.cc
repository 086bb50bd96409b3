#include "src/client/ApiError.h"

#include <nlohmann/json.hpp>

#include "src/base/NlohmannFields.h"
#include "src/base/Utf8Text.h"
#include "src/proto/ProtoEnvelope.h"
#include "src/proto/ProtoStatus.h"

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

constexpr auto* StringAt = &NlohmannFields::StringAt;

// "; field: message" for each cause whose field the message does not name yet.
std::string CausesSuffix(const nlohmann::json& body, const std::string& message) {
  auto details = body.find("details");
  if (details == body.end() || !details->is_object()) return "";
  auto causes = details->find("causes");
  if (causes == details->end() || !causes->is_array()) return "";
  std::string suffix;
  for (const auto& cause : *causes) {
    std::string field = StringAt(cause, "field");
    if (!field.empty() && message.find(field) == std::string::npos) {
      suffix += "; " + field + ": " + StringAt(cause, "message");
    }
  }
  return suffix;
}

// A Status answered in protobuf (to a request that accepted it): its reason
// and message, the causes' fields appended as for JSON.
void ReadProtobufStatus(const std::string& body, StatusCode& code, std::string& message) {
  auto raw = ProtoEnvelope::Unwrap(body);
  if (!raw.ok()) return;
  auto status = ProtoStatus::Decode(*raw);
  if (!status.ok()) return;
  if (!status->reason.empty()) code = FromReason(status->reason);
  message = status->message;
  for (const auto& cause : status->causes) {
    if (!cause.field.empty() && message.find(cause.field) == std::string::npos) {
      message += "; " + cause.field + ": " + cause.message;
    }
  }
}

}  // namespace

Status ApiErrorFromResponse(const HttpResponse& response, const std::string& what) {
  StatusCode code = FromHttp(response.status);
  std::string message;
  if (ProtoEnvelope::IsProtobuf(response.body)) {
    ReadProtobufStatus(response.body, code, message);
    if (message.empty()) message = "HTTP " + std::to_string(response.status);
    return Status(code, what + ": " + message);
  }
  auto body = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_object() && StringAt(body, "kind") == "Status") {
    std::string reason = StringAt(body, "reason");
    if (!reason.empty()) code = FromReason(reason);
    message = StringAt(body, "message");
    message += CausesSuffix(body, message);
  }
  if (message.empty()) {
    message = "HTTP " + std::to_string(response.status);
    if (!response.body.empty()) message += ": " + std::string(Utf8Text::Prefix(response.body, 200));
  }
  return Status(code, what + ": " + message);
}

}  // namespace kube
