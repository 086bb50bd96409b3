#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "src/client/RestClient.h"
#include "tests/chaos/ChaosResources.h"

namespace dra::testing {

// What the driver managed to change (requests the API server answered 2xx).
struct ChangeCounts {
  int health_changes = 0;  // DeviceHealth created, its state changed, or deleted
  int slice_changes = 0;   // ResourceSlices added or removed
  int class_changes = 0;   // DeviceClasses with an extendedResourceName created or deleted
  int pod_changes = 0;     // extended-resource Pods created or deleted
  int failed = 0;          // requests that failed (the API server was down, ...)
};

// A stream of random changes, one every `interval`, on its own thread:
// DeviceHealth objects applied with a new state (Healthy, Degraded,
// Unhealthy, Unknown), whole-pool ones, deletions; extra ResourceSlices
// published and removed; DeviceClasses with an extendedResourceName created
// and deleted (one of them duplicating the fleet's resource name); Pods that
// ask for the extended resource created and deleted. Failed requests are
// counted and the stream goes on (the API server may be restarting).
class ChangeDriver {
 public:
  ChangeDriver(std::shared_ptr<kube::RestClient> client, chaos::Fleet fleet, std::string ns,
               uint32_t seed, std::chrono::milliseconds interval);
  ~ChangeDriver() { Stop(); }

  void Start();
  void Stop();
  ChangeCounts counts() const;

 private:
  void Run();
  void Step();
  void ChangeHealth();
  void DeleteHealth();
  void ToggleSlice();
  void ToggleClass();
  void CreatePod();
  void DeletePod();
  bool Count(const kube::Status& status, int ChangeCounts::*field);
  std::string Pick(const std::vector<std::string>& from);
  int Below(int n);

  std::shared_ptr<kube::RestClient> client_;
  chaos::Fleet fleet_;
  std::string ns_;
  std::chrono::milliseconds interval_;
  std::mt19937 rng_;
  std::thread thread_;
  std::atomic<bool> stop_{false};

  // What the driver believes exists (its thread only).
  std::map<std::string, std::string> health_states_;
  std::set<std::string> slices_;
  std::set<std::string> classes_;
  std::set<std::string> pods_;
  int next_pod_ = 0;

  mutable std::mutex mu_;
  ChangeCounts counts_;
};

}  // namespace dra::testing
