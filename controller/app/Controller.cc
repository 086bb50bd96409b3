#include "controller/app/Controller.h"

#include <prometheus/gauge.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "controller/BuildInfo.h"
#include "src/base/Jitter.h"

namespace dra::app {
namespace {

constexpr const char* kResourceApi = "/apis/resource.k8s.io/v1";
const char* const kRequiredResources[] = {"deviceclasses", "resourceslices", "resourceclaims",
                                          "devicetaintrules"};

}  // namespace

Controller::Controller(kube::RestConfig config, ControllerOptions options)
    : config_(std::move(config)), options_(std::move(options)) {}

Controller::~Controller() { Stop(); }

kube::Status Controller::Start() {
  config_.user_agent = std::string("dra-controller/") + build::kVersion;
  registry_ = std::make_shared<prometheus::Registry>();
  rest_metrics_ = std::make_unique<kube::RestClientMetrics>(*registry_, config_.server);
  auto client = NewClient(config_);
  if (!client.ok()) return client.status();
  client_ = std::move(*client);
  kube::Status servers = StartServers();
  if (!servers.ok()) return servers;
  connector_ = std::thread([this] { ConnectLoop(); });
  if (options_.leader_elect) StartLeaderElection();
  return kube::Status::Ok();
}

void Controller::StartLeaderElection() {
  kube::LeaderElectionConfig election;
  election.namespace_name = options_.leader_election_namespace.empty()
                                ? config_.namespace_name
                                : options_.leader_election_namespace;
  election.name = options_.leader_election_id;
  election.identity = kube::LeaderElector::DefaultIdentity();
  election.lease_duration = options_.lease_duration;
  election.renew_deadline = options_.renew_deadline;
  election.retry_period = options_.retry_period;
  election.metrics = registry_.get();
  election.on_started_leading = [] { spdlog::info("leading: reconcilers may run"); };
  election.on_new_leader = [](const std::string& id) { spdlog::info("current leader: {}", id); };
  election.on_stopped_leading = [this] {
    bool shutting_down;
    {
      std::lock_guard lock(mu_);
      shutting_down = stopping_;
    }
    if (!shutting_down && options_.on_leadership_lost) options_.on_leadership_lost();
  };
  elector_ = std::make_unique<kube::LeaderElector>(ElectionClient(), election);
  elector_->Start();
}

// Lease requests time out after a retry period, so a hung call cannot keep
// a leader leading past its renew deadline (see LeaderElector).
std::shared_ptr<kube::RestClient> Controller::ElectionClient() const {
  kube::RestConfig config = config_;
  config.request_timeout = std::max(std::chrono::milliseconds(1000),
                                    std::min(config.request_timeout, options_.retry_period));
  auto client = NewClient(config);
  if (client.ok()) return std::move(*client);
  spdlog::warn("leader election: using the shared client: {}", client.status().ToString());
  return client_;
}

// A client over its own transport, counted in the shared rest_client_* metrics.
kube::Result<std::shared_ptr<kube::RestClient>> Controller::NewClient(
    const kube::RestConfig& config) const {
  auto transport = kube::HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  kube::RestClientOptions client_options;
  client_options.metrics = rest_metrics_.get();
  return std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)), client_options);
}

kube::Status Controller::StartServers() {
  prometheus::BuildGauge()
      .Name("dra_controller_build_info")
      .Help("Always 1; labels carry the dra-controller version")
      .Register(*registry_)
      .Add({{"version", build::kVersion}})
      .Set(1);

  auto healthz = [] { return kube::EndpointServer::Reply{200, "ok\n"}; };
  auto readyz = [this] {
    return ready_ ? kube::EndpointServer::Reply{200, "ok\n"}
                  : kube::EndpointServer::Reply{503, "not connected to the API server yet\n"};
  };
  auto health = kube::EndpointServer::Start(options_.health_probe_bind_address,
                                            {{"/healthz", healthz}, {"/readyz", readyz}});
  if (!health.ok()) return health.status().WithContext("--health-probe-bind-address");
  health_ = std::move(*health);
  spdlog::info("serving probes on {} (/healthz, /readyz) port={}",
               options_.health_probe_bind_address, health_->port());

  if (options_.metrics_bind_address != "0") {
    auto registry = registry_;
    auto scrape = [registry] {
      return kube::EndpointServer::Reply{
          200, prometheus::TextSerializer().Serialize(registry->Collect()),
          "text/plain; version=0.0.4; charset=utf-8"};
    };
    auto metrics =
        kube::EndpointServer::Start(options_.metrics_bind_address, {{"/metrics", scrape}});
    if (!metrics.ok()) return metrics.status().WithContext("--metrics-bind-address");
    metrics_ = std::move(*metrics);
    spdlog::info("serving metrics on {} (/metrics) port={}", options_.metrics_bind_address,
                 metrics_->port());
  }
  return kube::Status::Ok();
}

void Controller::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (elector_) elector_->Stop();  // first: releasing the lease lets a standby take over now
  if (connector_.joinable()) connector_.join();
  if (informers_) informers_->StopAll();
  // Each server takes up to civetweb's 2 s poll quantum to stop; overlap them.
  std::thread stop_metrics([this] { metrics_.reset(); });
  health_.reset();
  stop_metrics.join();
}

bool Controller::WaitOrStop(std::chrono::milliseconds delay) {
  std::unique_lock lock(mu_);
  return !stop_cv_.wait_for(lock, delay, [this] { return stopping_; });
}

void Controller::ConnectLoop() {
  auto backoff = std::chrono::milliseconds(800);
  while (true) {
    kube::Status probed = ProbeApiServer();
    if (probed.ok()) {
      if (SyncInventory()) ready_ = true;
      return;
    }
    auto delay = kube::Jitter(backoff, 1.0);
    spdlog::warn("API server not usable yet, retrying in {} ms: {}", delay.count(),
                 probed.ToString());
    if (!WaitOrStop(delay)) return;
    backoff = std::min(backoff * 2, std::chrono::milliseconds(30000));
  }
}

bool Controller::SyncInventory() {
  inventory_ = std::make_unique<inventory::Inventory>(registry_.get());
  informers_ = std::make_unique<kube::InformerRegistry>(client_, registry_);
  inventory_informers_ = std::make_unique<inventory::InventoryInformers>(
      *informers_, *inventory_, served_resources_.contains("devicetaintrules"));
  informers_->StartAll();
  auto started = std::chrono::steady_clock::now();
  while (!inventory_informers_->WaitForSync(std::chrono::milliseconds(500))) {
    if (!WaitOrStop(std::chrono::milliseconds(0))) return false;
  }
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  spdlog::info("inventory synced in {} ms: {} devices in {} pools, {} selector errors",
               took.count(), inventory_->device_count(), inventory_->Pools().size(),
               inventory_->selector_error_total());
  return true;
}

kube::Status Controller::ProbeApiServer() {
  auto version = client_->Get("/version");
  if (!version.ok()) return version.status();
  std::string git_version = version->is_object() && (*version)["gitVersion"].is_string()
                                ? (*version)["gitVersion"].get<std::string>()
                                : "(unknown version)";
  spdlog::info("connected to Kubernetes {} at {} via {}", git_version, config_.server,
               config_.source);
  auto api = client_->Get(kResourceApi);
  if (!api.ok()) return api.status().WithContext("DRA API resource.k8s.io/v1 not served");
  for (const char* wanted : kRequiredResources) {
    bool served = false;
    const nlohmann::json* resources =
        api->is_object() && api->contains("resources") ? &(*api)["resources"] : nullptr;
    for (const auto& r :
         resources && resources->is_array() ? *resources : nlohmann::json::array()) {
      served = served || (r.is_object() && r.contains("name") && r["name"] == wanted);
    }
    if (served) {
      served_resources_.insert(wanted);
    } else {
      spdlog::warn("resource.k8s.io/v1 does not serve {}; features using it stay off", wanted);
    }
  }
  return kube::Status::Ok();
}

}  // namespace dra::app
