#include "controller/alerts/AlertMapper.h"

#include <charconv>

#include "controller/health/SourcedHealthName.h"
#include "src/base/QuoteForMessage.h"
#include "src/base/Utf8Text.h"

namespace dra::alerts {
namespace {

constexpr size_t kMaxReason = 128;
constexpr size_t kUuidShown = 12;

kube::Status Invalid(const Alert& alert, const std::string& why) {
  std::string name = alert.Label("alertname");
  return kube::Status(
      kube::StatusCode::kInvalidArgument,
      "alert " + (name.empty() ? std::string("without alertname") : kube::QuoteForMessage(name)) +
          ": " + why);
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

std::optional<int64_t> ParseIndex(const std::string& text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::string MessageOf(const Alert& alert) {
  for (const char* key : {"summary", "description", "message"}) {
    auto it = alert.annotations.find(key);
    if (it != alert.annotations.end() && !it->second.empty()) {
      return kube::Utf8Text::Truncate(it->second, AlertMapper::kMaxMessage);
    }
  }
  return "";
}

std::string Lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace

std::string AlertMapper::ReasonFrom(const std::string& alertname) {
  std::string reason;
  bool word_start = true;
  for (char c : alertname) {
    if (!IsAlnum(c)) {
      word_start = true;
      continue;
    }
    if (reason.empty() && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) continue;
    if (word_start && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    reason.push_back(c);
    word_start = false;
    if (reason.size() == kMaxReason) break;
  }
  return reason.empty() ? "Alert" : reason;
}

kube::Result<GpuAlert> AlertMapper::Map(const Alert& alert) const {
  GpuAlert out;
  out.firing = alert.firing;
  out.fingerprint = alert.fingerprint;
  out.at_ms = alert.EventMillis();
  out.reason = ReasonFrom(alert.Label("alertname"));
  out.message = MessageOf(alert);
  if (std::string state = alert.Label(labels_.state); !state.empty()) {
    auto parsed = api::ParseHealthState(state);
    if (!parsed) {
      return Invalid(alert,
                     labels_.state + " " + kube::QuoteForMessage(state) + " is not a health state");
    }
    out.state = *parsed;
  }
  out.uuid = alert.Label(labels_.uuid);
  if (!out.uuid.empty()) {
    // "GPU-8fa1fd4b": enough to recognise the GPU in `kubectl get`, the hash
    // of the whole UUID tells it apart.
    out.health_name =
        health::SourcedHealthName::For("alert-", out.uuid.substr(0, kUuidShown), Lower(out.uuid));
    return out;
  }
  out.node = alert.Label(labels_.host);
  std::string index = alert.Label(labels_.index);
  if (out.node.empty() || index.empty()) {
    return Invalid(alert, "names no GPU (no " + labels_.uuid + " label, nor " + labels_.host +
                              " and " + labels_.index + ")");
  }
  out.index = ParseIndex(index);
  if (!out.index) {
    return Invalid(alert, labels_.index + " " + kube::QuoteForMessage(index) + " is not an index");
  }
  std::string identity = out.node + "/" + std::to_string(*out.index);
  out.health_name = health::SourcedHealthName::For(
      "alert-", out.node + "-gpu" + std::to_string(*out.index), identity);
  return out;
}

}  // namespace dra::alerts
