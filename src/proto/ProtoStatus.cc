#include "src/proto/ProtoStatus.h"

#include "src/proto/ProtoReader.h"

namespace kube {
namespace {

// metav1.Status, StatusDetails and StatusCause field numbers.
constexpr uint32_t kStatusMessage = 3;
constexpr uint32_t kStatusReason = 4;
constexpr uint32_t kStatusDetails = 5;
constexpr uint32_t kStatusCode = 6;
constexpr uint32_t kDetailsCauses = 4;
constexpr uint32_t kCauseMessage = 2;
constexpr uint32_t kCauseField = 3;

Result<ProtoStatus::Cause> DecodeCause(std::string_view message) {
  ProtoStatus::Cause cause;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kCauseMessage) cause.message = reader.AsString();
    if (reader.field() == kCauseField) cause.field = reader.AsString();
  }
  if (!reader.ok()) return reader.status();
  return cause;
}

Status DecodeDetails(std::string_view message, ProtoStatus& status) {
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() != kDetailsCauses || !reader.is_bytes()) continue;
    auto cause_or = DecodeCause(reader.bytes());
    if (!cause_or.ok()) return cause_or.status();
    auto cause = std::move(*cause_or);
    status.causes.push_back(std::move(cause));
  }
  return reader.status();
}

}  // namespace

Result<ProtoStatus> ProtoStatus::Decode(std::string_view message) {
  ProtoStatus status;
  ProtoReader reader(message);
  while (reader.Next()) {
    switch (reader.field()) {
      case kStatusMessage:
        if (reader.is_bytes()) status.message = reader.AsString();
        break;
      case kStatusReason:
        if (reader.is_bytes()) status.reason = reader.AsString();
        break;
      case kStatusDetails:
        if (reader.is_bytes()) KUBE_RETURN_IF_ERROR(DecodeDetails(reader.bytes(), status));
        break;
      case kStatusCode:
        if (reader.is_varint()) status.code = static_cast<int32_t>(reader.AsInt64());
        break;
      default:
        break;
    }
  }
  if (!reader.ok()) return reader.status();
  return status;
}

}  // namespace kube
