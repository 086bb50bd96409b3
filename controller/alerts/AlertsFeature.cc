#include "controller/alerts/AlertsFeature.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "controller/alerts/AlertWebhook.h"
#include "controller/alerts/RestAlertHealthStore.h"
#include "controller/alerts/RestResolutionStore.h"
#include "controller/health/DeviceHealthApi.h"
#include "controller/health/DeviceLocator.h"
#include "controller/health/HealthFlags.h"
#include "controller/health/RestSourcedHealthWriter.h"
#include "controller/health/RuleFirstWriter.h"
#include "src/manager/FunctionRunnable.h"

namespace dra::alerts {
namespace {

constexpr const char* kBind = "alertmanager-webhook-bind-address";
// Alertmanager's webhook timeout is its notification's; one notification of
// many alerts may take a write per GPU.
constexpr std::chrono::seconds kRequestDeadline{20};

constexpr const char* kRequiredLabels = "alertmanager-required-labels";
// The ConfigMap of alert resolutions: <leader-election-id>-alert-resolutions.
constexpr const char* kResolutionsSuffix = "-alert-resolutions";

// The Warning Event's subject: this controller's Pod, when it knows it.
std::function<void(const std::string&, const std::string&)> PodWarnings(kube::Manager& manager) {
  // NOLINTBEGIN(concurrency-mt-unsafe): getenv races only with setenv, which we never call.
  const char* pod = std::getenv("POD_NAME");
  const char* ns = std::getenv("POD_NAMESPACE");
  // NOLINTEND(concurrency-mt-unsafe)
  if (pod == nullptr || ns == nullptr || *pod == '\0' || *ns == '\0') {
    spdlog::info(
        "alertmanager webhook: POD_NAME/POD_NAMESPACE unset; unapplied alerts are logged "
        "and counted, without Events");
    return nullptr;
  }
  kube::ObjectReference subject{"v1", "Pod", ns, pod, "", ""};
  auto recorder = manager.Recorder("dra-controller");
  return [recorder, subject](const std::string& reason, const std::string& message) {
    recorder->Event(subject, kube::kEventTypeWarning, reason, message);
  };
}

std::function<size_t(const GpuAlert&)> DeviceCounter(const inventory::Inventory& inventory,
                                                     const health::DeviceAttributeNames& names) {
  return [&inventory, names](const GpuAlert& alert) {
    health::DeviceLocator locator(inventory, names);
    if (!alert.uuid.empty()) return locator.ByUuid("", alert.uuid).size();
    return locator.ByNodeIndex("", alert.node, alert.index.value_or(-1)).size();
  };
}

}  // namespace

void AlertsFeature::DeclareFlags(kube::FlagSet& flags) {
  flags.String(kBind, "",
               "Alertmanager webhook: serve POST /alertmanager over HTTPS on HOST:PORT (off when "
               "empty); callers need a token allowed to post the non-resource URL /alertmanager "
               "(RBAC: nonResourceURLs [/alertmanager], verbs [post])");
  flags.String("alertmanager-uuid-label", AlertLabels{}.uuid,
               "Alertmanager webhook: the alert label holding the GPU's UUID");
  flags.String("alertmanager-host-label", AlertLabels{}.host,
               "Alertmanager webhook: the alert label holding the GPU's node");
  flags.String("alertmanager-index-label", AlertLabels{}.index,
               "Alertmanager webhook: the alert label holding the GPU's index on its node");
  flags.String("alertmanager-state-label", AlertLabels{}.state,
               "Alertmanager webhook: the alert label holding the DeviceHealth state "
               "(Unhealthy when absent)");
  flags.String(kRequiredLabels, "",
               "Alertmanager webhook: label values every alert must carry to be acted on, as "
               "NAME=VALUE,... (e.g. job=nvidia-dcgm-exporter,namespace=gpu-operator: the DCGM "
               "exporter's series); other alerts are refused and counted as untrusted. Empty: "
               "every alert");
}

kube::Status AlertsFeature::ParseFlags(const kube::FlagSet& flags) {
  bind_address_ = flags.Get(kBind);
  labels_ = {flags.Get("alertmanager-uuid-label"), flags.Get("alertmanager-host-label"),
             flags.Get("alertmanager-index-label"), flags.Get("alertmanager-state-label")};
  for (const std::string* label : {&labels_.uuid, &labels_.host, &labels_.index, &labels_.state}) {
    if (label->empty()) {
      return kube::Status(kube::StatusCode::kInvalidArgument,
                          "--alertmanager-*-label flags must not be empty");
    }
  }
  auto required = AlertLabelFilter::Parse(flags.Get(kRequiredLabels));
  if (!required.ok()) return required.status();
  required_labels_ = std::move(*required);
  // The attribute names device health reads (--device-uuid-attribute, ...).
  auto health = health::HealthFlags::Parse(flags);
  if (!health.ok()) return health.status();
  attribute_names_ = health->attribute_names;
  return kube::Status::Ok();
}

kube::Status AlertsFeature::Wire(feature::FeatureContext& context) {
  if (bind_address_.empty()) {
    context.states.Off(std::string(Name()), "TurnedOff");
    return kube::Status::Ok();
  }
  kube::Manager& manager = context.manager;
  if (kube::Status served = health::DeviceHealthApi::Served(*manager.client()); !served.ok()) {
    spdlog::warn("alertmanager webhook off: {}", served.message());
    context.states.Off(std::string(Name()), "DeviceHealthNotServed");
    return kube::Status::Ok();
  }
  auto tls = manager.ServingTls();
  if (!tls.ok()) return tls.status().WithContext("alertmanager webhook");
  auto reviews = manager.NewAuthorizer();
  if (!reviews.ok()) return reviews.status().WithContext("alertmanager webhook");
  std::shared_ptr<kube::RequestAuthorizer> authorizer = *reviews;
  if (required_labels_.empty()) {
    spdlog::info("alertmanager webhook: --{} unset: alerts from any series are acted on",
                 kRequiredLabels);
  }
  auto metrics = std::make_shared<AlertMetrics>(manager.registry());
  auto resolutions = std::make_shared<RestResolutionStore>(
      manager.client(), manager.OwnNamespace(),
      (manager.OwnName().empty() ? "dra-controller" : manager.OwnName()) + kResolutionsSuffix);
  auto receiver = std::make_shared<AlertReceiver>(AlertReceiver::Inputs{
      AlertMapper(labels_), DeviceCounter(context.inventory, attribute_names_),
      std::make_shared<RestAlertHealthStore>(
          manager.client(),
          health::RuleFirstWriter::ForSources(
              context, std::make_shared<health::RestSourcedHealthWriter>(manager.client()),
              attribute_names_)),
      PodWarnings(manager), metrics, nullptr, required_labels_, resolutions});
  auto webhook = std::make_shared<AlertWebhook>(
      [authorizer](const kube::EndpointRequest& head) {
        return authorizer->Authorize(AlertWebhook::kVerb, AlertWebhook::kPath, head.authorization,
                                     head.peer);
      },
      receiver, metrics);
  auto start = [slot = server_, bind = bind_address_, webhook, tls = *tls] {
    kube::EndpointLimits limits;
    limits.deadline = kRequestDeadline;
    auto server = kube::EndpointServer::StartRoutes(
        bind, {{AlertWebhook::kPath, webhook->Route(webhook)}}, tls, limits);
    if (!server.ok()) return server.status().WithContext("--" + std::string(kBind));
    *slot = std::move(*server);
    spdlog::info("serving the Alertmanager webhook on {} (POST {}, HTTPS) port={}", bind,
                 AlertWebhook::kPath, (*slot)->port());
    return kube::Status::Ok();
  };
  manager.Add(std::make_unique<kube::FunctionRunnable>(
      "alertmanager-webhook", false, start, [slot = server_] { slot->reset(); },
      context.informers.DeviceDependencies()));
  return kube::Status::Ok();
}

}  // namespace dra::alerts
