#include "src/proto/ProtoEnvelope.h"

#include "src/proto/ProtoReader.h"

namespace kube {
namespace {

// runtime.Unknown's fields.
constexpr uint32_t kRaw = 2;
constexpr uint32_t kContentEncoding = 3;

}  // namespace

Result<std::string_view> ProtoEnvelope::Unwrap(std::string_view body) {
  if (!IsProtobuf(body)) {
    return Status(StatusCode::kParseError, "protobuf: body does not start with the k8s magic");
  }
  ProtoReader unknown(body.substr(kMagic.size()));
  std::string_view raw;
  while (unknown.Next()) {
    if (unknown.field() == kRaw && unknown.is_bytes()) raw = unknown.bytes();
    if (unknown.field() == kContentEncoding && unknown.is_bytes() && !unknown.bytes().empty()) {
      return Status(StatusCode::kParseError,
                    "protobuf: unsupported content encoding " + unknown.AsString());
    }
  }
  if (!unknown.ok()) return unknown.status();
  return raw;
}

}  // namespace kube
