#include "controller/kubelet/KubeletHealthMetrics.h"

#include <string>

#include "src/metrics/MetricFamilyCache.h"

namespace dra::kubelet {
namespace {

const char* OutcomeName(health::SourcedWrite outcome) {
  switch (outcome) {
    case health::SourcedWrite::kCreated:
      return "created";
    case health::SourcedWrite::kUpdated:
      return "updated";
    case health::SourcedWrite::kUnchanged:
      return "unchanged";
    case health::SourcedWrite::kNotOurs:
      return "not_ours";
  }
  return "error";
}

}  // namespace

KubeletHealthMetrics::KubeletHealthMetrics(std::shared_ptr<prometheus::Registry> registry)
    : registry_(std::move(registry)) {
  if (!registry_) return;
  auto reports = kube::MetricFamilyCache::Counter(
      registry_, "dra_controller_kubelet_health_reports_total",
      "Kubelet device health reports read when their device is reconciled, by health", {"health"});
  if (reports.ok()) reports_ = *reports;
  auto writes = kube::MetricFamilyCache::Counter(
      registry_, "dra_controller_kubelet_health_writes_total",
      "DeviceHealth writes of the kubelet source, by outcome", {"outcome"});
  if (writes.ok()) writes_ = *writes;
  auto ignored = kube::MetricFamilyCache::Counter(
      registry_, "dra_controller_kubelet_health_reports_ignored_total",
      "Kubelet device health reports the cluster does not confirm (the Pod's claims do not hold "
      "the device on its node), by reason; never acted on",
      {"reason"});
  if (ignored.ok()) ignored_ = *ignored;
}

void KubeletHealthMetrics::Ignored(ReportTrust trust) {
  Count(ignored_, "reason", ReportTrustName(trust));
}

void KubeletHealthMetrics::Report(api::HealthState health) {
  Count(reports_, "health", std::string(api::HealthStateName(health)).c_str());
}

void KubeletHealthMetrics::Write(health::SourcedWrite outcome) {
  Count(writes_, "outcome", OutcomeName(outcome));
}

void KubeletHealthMetrics::Deleted() { Count(writes_, "outcome", "deleted"); }

void KubeletHealthMetrics::WriteFailed() { Count(writes_, "outcome", "error"); }

void KubeletHealthMetrics::Count(prometheus::Family<prometheus::Counter>* family, const char* label,
                                 const char* value) {
  if (family == nullptr) return;
  family->Add({{label, value}}).Increment();
}

}  // namespace dra::kubelet
