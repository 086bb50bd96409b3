#include "controller/kubelet/KubeletHealthSource.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "controller/health/SourcedHealth.h"
#include "controller/kubelet/HealthObjectName.h"
#include "src/base/QuoteForMessage.h"
#include "src/base/Utf8Text.h"

namespace dra::kubelet {
namespace {

constexpr size_t kMaxMessage = 1024;

std::string Reason(api::HealthState state) {
  switch (state) {
    case api::HealthState::kUnhealthy:
      return "KubeletReportedUnhealthy";
    case api::HealthState::kUnknown:
      return "KubeletReportedUnknown";
    default:
      return "KubeletReportedHealthy";
  }
}

// "kubelet reports Unhealthy: <reporter>; <reporter> (and N more)", at most
// kMaxMessage characters.
std::string Message(const DeviceVerdict& verdict) {
  std::string message =
      "kubelet reports " + std::string(api::HealthStateName(*verdict.state)) + ": ";
  const size_t reserve = 32;  // for " (and N more)"
  for (size_t i = 0; i < verdict.reporters.size(); ++i) {
    const std::string& reporter = verdict.reporters[i];
    std::string separator = i == 0 ? "" : "; ";
    if (message.size() + separator.size() + reporter.size() + reserve > kMaxMessage) {
      message += " (and " + std::to_string(verdict.reporters.size() - i) + " more)";
      return std::string(kube::Utf8Text::Prefix(message, kMaxMessage));
    }
    message += separator + reporter;
  }
  return message;
}

bool Holds(const api::DeviceHealth& cached, const health::SourcedHealth& desired) {
  return cached.driver == desired.driver && cached.pool == desired.pool &&
         cached.device == desired.device && cached.uuid.empty() && cached.node.empty() &&
         !cached.index.has_value() && cached.state == desired.state &&
         cached.reason == desired.reason && cached.message == desired.message;
}

}  // namespace

KubeletHealthSource::KubeletHealthSource(Inputs inputs,
                                         std::shared_ptr<health::SourcedHealthWriter> writer,
                                         std::shared_ptr<KubeletHealthMetrics> metrics)
    : inputs_(std::move(inputs)),
      aggregator_(inputs_.claim),
      writer_(std::move(writer)),
      metrics_(std::move(metrics)) {}

health::SourcedHealth KubeletHealthSource::Desired(const inventory::DeviceKey& device,
                                                   const DeviceVerdict& verdict) {
  health::SourcedHealth desired;
  desired.name = HealthObjectName::For(device);
  desired.source = kSource;
  desired.driver = device.driver;
  desired.pool = device.pool;
  desired.device = device.device;
  desired.state = *verdict.state;
  desired.reason = Reason(*verdict.state);
  desired.message = Message(verdict);
  return desired;
}

kube::ReconcileResult KubeletHealthSource::Reconcile(const std::string& device_key) {
  auto device = DeviceReportAggregator::DeviceOf(device_key);
  if (!device) return kube::ReconcileResult::Done();
  auto pods = Trusted(inputs_.pods(), *device);
  CountReports(pods, *device);
  DeviceVerdict verdict = aggregator_.Aggregate(pods, *device);
  const std::string name = HealthObjectName::For(*device);
  auto cached = inputs_.health(name);
  if (cached && cached->Label(health::kSourceLabel) != kSource) {
    NoteSquatter(name, device_key);
    spdlog::warn(
        "kubelet health: DeviceHealth {} is not the kubelet source's ({}={}); left as it is", name,
        health::kSourceLabel, cached->Label(health::kSourceLabel));
    metrics_->Write(health::SourcedWrite::kNotOurs);
    return kube::ReconcileResult::Done();
  }
  if (!verdict.state) {
    // No report: the object keeps what the last one said (and a Healthy one
    // goes once device health is done with it).
    bool retire = cached && Retired(*cached);
    return retire ? Remove(*cached) : kube::ReconcileResult::Done();
  }
  health::SourcedHealth desired = Desired(*device, verdict);
  // Only an Unhealthy report creates an object. The kubelet reports every
  // device of a driver that streams no health as Unknown, so Unknown alone
  // would give each allocated device of such a driver a DeviceHealth and a
  // rule; it only updates an object an Unhealthy report made.
  if (!cached && desired.state != api::HealthState::kUnhealthy) {
    return kube::ReconcileResult::Done();
  }
  if (cached && Holds(*cached, desired)) {
    bool retire = desired.state == api::HealthState::kHealthy && Retired(*cached);
    return retire ? Remove(*cached) : kube::ReconcileResult::Done();
  }
  return Write(desired, device_key);
}

kube::ReconcileResult KubeletHealthSource::Write(const health::SourcedHealth& desired,
                                                 const std::string& device_key) {
  auto written = writer_->Apply(desired);
  if (!written.ok()) {
    metrics_->WriteFailed();
    return kube::ReconcileResult::Error(written.status());
  }
  metrics_->Write(*written);
  if (*written == health::SourcedWrite::kNotOurs) {
    NoteSquatter(desired.name, device_key);
    spdlog::warn("kubelet health: DeviceHealth {} is not the kubelet source's; left as it is",
                 desired.name);
  } else if (*written != health::SourcedWrite::kUnchanged) {
    spdlog::info("kubelet health: DeviceHealth {} for {}: {} ({})", desired.name, device_key,
                 api::HealthStateName(desired.state), desired.message);
  }
  return kube::ReconcileResult::Done();
}

std::vector<std::shared_ptr<const api::PodView>> KubeletHealthSource::Trusted(
    const std::vector<std::shared_ptr<const api::PodView>>& pods,
    const inventory::DeviceKey& device) {
  const std::string key = device.ToString();
  std::vector<std::shared_ptr<const api::PodView>> trusted;
  for (const auto& pod : pods) {
    bool reports =
        std::any_of(pod->device_reports.begin(), pod->device_reports.end(),
                    [&](const auto& report) { return aggregator_.Counts(*pod, report, device); });
    if (!reports) continue;
    ReportTrust trust = inputs_.verify ? inputs_.verify(*pod, device) : ReportTrust::kTrusted;
    if (trust == ReportTrust::kTrusted) {
      trusted.push_back(pod);
      continue;
    }
    metrics_->Ignored(trust);
    if (auto suppressed = ignored_log_.Admit()) {
      spdlog::warn(
          "kubelet health: ignored Pod {}'s report of device {} ({}: none of its claims holds the "
          "device on its node {}); {} more not logged",
          kube::QuoteForMessage(pod->meta.Key()), kube::QuoteForMessage(key),
          ReportTrustName(trust), kube::QuoteForMessage(pod->node_name.view()), *suppressed);
    }
  }
  return trusted;
}

void KubeletHealthSource::NoteSquatter(const std::string& name, const std::string& device_key) {
  std::lock_guard lock(mu_);
  squatted_[name] = device_key;
}

bool KubeletHealthSource::Retired(const api::DeviceHealth& health) {
  const auto* enforced = health.FindCondition("Enforced");
  return health.state == api::HealthState::kHealthy &&
         health.status.observed_generation == health.generation && enforced != nullptr &&
         enforced->status == "True" && health.status.rule_name.empty();
}

kube::ReconcileResult KubeletHealthSource::Remove(const api::DeviceHealth& health) {
  if (!inputs_.remove) return kube::ReconcileResult::Done();
  kube::Status removed = inputs_.remove(health);
  if (!removed.ok()) {
    metrics_->WriteFailed();
    return kube::ReconcileResult::Error(removed);
  }
  metrics_->Deleted();
  spdlog::info("kubelet health: deleted DeviceHealth {}: Healthy and its taint is gone",
               health.meta.name);
  return kube::ReconcileResult::Done();
}

void KubeletHealthSource::CountReports(const std::vector<std::shared_ptr<const api::PodView>>& pods,
                                       const inventory::DeviceKey& device) {
  for (const auto& pod : pods) {
    for (const auto& report : pod->device_reports) {
      if (!aggregator_.Counts(*pod, report, device)) continue;
      using Health = api::PodView::ReportedHealth;
      metrics_->Report(report.health == Health::kHealthy     ? api::HealthState::kHealthy
                       : report.health == Health::kUnhealthy ? api::HealthState::kUnhealthy
                                                             : api::HealthState::kUnknown);
    }
  }
}

std::vector<std::string> KubeletHealthSource::KeysOfPod(const api::PodView& pod) const {
  return aggregator_.DeviceKeysOf(pod);
}

std::vector<std::string> KubeletHealthSource::KeysOfHealth(const api::DeviceHealth& health) const {
  if (health.Label(health::kSourceLabel) != kSource) {
    std::lock_guard lock(mu_);
    auto it = squatted_.find(health.meta.name);
    if (it == squatted_.end()) return {};
    return {it->second};
  }
  if (health.device.empty()) return {};
  return {inventory::DeviceKey{health.driver, health.pool, health.device}.ToString()};
}

}  // namespace dra::kubelet
