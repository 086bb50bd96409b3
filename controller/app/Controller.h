#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/base/Status.h"
#include "src/cache/InformerRegistry.h"
#include "src/client/RestClient.h"
#include "src/config/RestConfig.h"
#include "src/http/EndpointServer.h"
#include "src/http/HttpTransport.h"
#include "src/leader/LeaderElector.h"

namespace prometheus {
class Registry;
}

namespace dra::app {

struct ControllerOptions {
  std::string metrics_bind_address = ":8080";  // "0" disables the metrics endpoint
  std::string health_probe_bind_address = ":8081";
  bool leader_elect = false;
  std::string leader_election_namespace;  // default: the configuration's namespace
  std::string leader_election_id = "dra-controller";
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
  // Called (from another thread) when leadership is lost; the process must exit.
  std::function<void()> on_leadership_lost;
};

// The long-running `dra-controller run` process: serves /healthz, /readyz and
// /metrics, connects to the API server (retrying with backoff until it
// answers) and checks that the DRA APIs it needs are served. Ready once
// connected.
class Controller {
 public:
  Controller(kube::RestConfig config, ControllerOptions options);
  ~Controller();

  kube::Status Start();
  void Stop();

  bool ready() const { return ready_; }
  bool leading() const { return elector_ ? elector_->IsLeader() : true; }
  int health_port() const { return health_ ? health_->port() : 0; }
  int metrics_port() const { return metrics_ ? metrics_->port() : 0; }

 private:
  void ConnectLoop();
  // Starts the DRA informers and waits for them; false if stopped first.
  bool SyncInventory();
  kube::Status ProbeApiServer();
  kube::Status StartServers();
  void StartLeaderElection();
  std::shared_ptr<kube::RestClient> ElectionClient() const;
  kube::Result<std::shared_ptr<kube::RestClient>> NewClient(const kube::RestConfig& config) const;
  bool WaitOrStop(std::chrono::milliseconds delay);

  kube::RestConfig config_;
  ControllerOptions options_;
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<kube::RestClientMetrics> rest_metrics_;
  std::shared_ptr<kube::RestClient> client_;
  std::unique_ptr<kube::LeaderElector> elector_;
  std::set<std::string> served_resources_;  // of resource.k8s.io/v1, from the probe
  std::unique_ptr<inventory::Inventory> inventory_;
  std::unique_ptr<kube::InformerRegistry> informers_;
  std::unique_ptr<inventory::InventoryInformers> inventory_informers_;
  std::unique_ptr<kube::EndpointServer> health_;
  std::unique_ptr<kube::EndpointServer> metrics_;
  std::atomic<bool> ready_{false};
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread connector_;
};

}  // namespace dra::app
