#include "tests/chaos/ChangeDriver.h"

#include <spdlog/spdlog.h>

#include "tests/support/FleetManifests.h"

namespace dra::testing {
namespace {

using nlohmann::json;

constexpr int kExtraPools = 2;  // chaos-extra-<k>, on chaos-node-0
constexpr int kExtraGpus = 2;
constexpr int kExtraClasses = 2;
constexpr size_t kMaxPods = 12;
const std::vector<std::string> kStates{"Healthy", "Degraded", "Unhealthy", "Unknown"};
const std::vector<std::string> kReasons{"XidError", "EccErrors", "Overheating", "Recovered"};

struct Target {
  std::string name, pool, device;
};

std::vector<Target> Targets(const chaos::Fleet& fleet) {
  std::vector<Target> out;
  for (int i = 0; i < fleet.nodes; ++i) {
    std::string pool = chaos::Fleet::NodeName(i);
    for (int j = 0; j < fleet.gpus; ++j) {
      std::string device = "gpu-" + std::to_string(j);
      out.push_back({pool + "-" + device, pool, device});
    }
    out.push_back({pool + "-pool", pool, ""});
  }
  for (int k = 0; k < kExtraPools; ++k) {
    std::string pool = "chaos-extra-" + std::to_string(k);
    for (int j = 0; j < kExtraGpus; ++j) {
      std::string device = "gpu-" + std::to_string(j);
      out.push_back({pool + "-" + device, pool, device});
    }
  }
  return out;
}

json Labels() { return {{chaos::kLabelKey, "true"}}; }

json Health(const Target& t, const std::string& state, const std::string& reason) {
  json spec = {{"driver", chaos::kDriver}, {"pool", t.pool}, {"state", state}, {"reason", reason}};
  if (!t.device.empty()) spec["device"] = t.device;
  return {{"apiVersion", "dra-controller.dev/v1alpha1"},
          {"kind", "DeviceHealth"},
          {"metadata", {{"name", t.name}, {"labels", Labels()}}},
          {"spec", spec}};
}

json ExtraSlice(const std::string& pool) {
  json devices = json::array();
  for (int j = 0; j < kExtraGpus; ++j) {
    devices.push_back(
        {{"name", "gpu-" + std::to_string(j)},
         {"attributes", {{"model", {{"string", chaos::kExtraModel}}}, {"index", {{"int", j}}}}},
         {"capacity", {{"memory", {{"value", "80Gi"}}}}}});
  }
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", pool}, {"labels", Labels()}}},
          {"spec",
           {{"driver", chaos::kDriver},
            {"nodeName", chaos::Fleet::NodeName(0)},
            {"pool", {{"name", pool}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", devices}}}};
}

}  // namespace

ChangeDriver::ChangeDriver(std::shared_ptr<kube::RestClient> client, chaos::Fleet fleet,
                           std::string ns, uint32_t seed, std::chrono::milliseconds interval)
    : client_(std::move(client)),
      fleet_(fleet),
      ns_(std::move(ns)),
      interval_(interval),
      rng_(seed) {}

void ChangeDriver::Start() {
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
}

void ChangeDriver::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

ChangeCounts ChangeDriver::counts() const {
  std::lock_guard lock(mu_);
  return counts_;
}

void ChangeDriver::Run() {
  while (!stop_) {
    auto next = std::chrono::steady_clock::now() + interval_;
    Step();
    std::this_thread::sleep_until(next);
  }
}

int ChangeDriver::Below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

std::string ChangeDriver::Pick(const std::vector<std::string>& from) {
  return from[Below(static_cast<int>(from.size()))];
}

void ChangeDriver::Step() {
  int roll = Below(100);
  if (roll < 50) return ChangeHealth();
  if (roll < 60) return DeleteHealth();
  if (roll < 68) return ToggleSlice();
  if (roll < 76) return ToggleClass();
  if (roll < 92) return CreatePod();
  DeletePod();
}

bool ChangeDriver::Count(const kube::Status& status, int ChangeCounts::*field) {
  std::lock_guard lock(mu_);
  if (!status.ok()) {
    ++counts_.failed;
    return false;
  }
  ++(counts_.*field);
  return true;
}

void ChangeDriver::ChangeHealth() {
  auto targets = Targets(fleet_);
  const Target& t = targets[Below(static_cast<int>(targets.size()))];
  std::string state = Pick(kStates);
  auto known = health_states_.find(t.name);
  if (known != health_states_.end() && known->second == state) return;  // not a change
  auto path = chaos::kDeviceHealths.ItemPath("", t.name);
  auto applied = client_->Apply(path, Health(t, state, Pick(kReasons)), "chaos-driver", true);
  if (Count(applied.status(), &ChangeCounts::health_changes)) health_states_[t.name] = state;
}

void ChangeDriver::DeleteHealth() {
  if (health_states_.empty()) return;
  auto it = health_states_.begin();
  std::advance(it, Below(static_cast<int>(health_states_.size())));
  std::string name = it->first;
  kube::Status deleted = client_->DeleteIfExists(chaos::kDeviceHealths.ItemPath("", name));
  if (Count(deleted, &ChangeCounts::health_changes)) health_states_.erase(name);
}

void ChangeDriver::ToggleSlice() {
  std::string pool = "chaos-extra-" + std::to_string(Below(kExtraPools));
  auto path = chaos::kResourceSlices.ItemPath("", pool);
  if (slices_.contains(pool)) {
    if (Count(client_->DeleteIfExists(path), &ChangeCounts::slice_changes)) slices_.erase(pool);
    return;
  }
  auto applied = client_->Apply(path, ExtraSlice(pool), "chaos-driver", true);
  if (Count(applied.status(), &ChangeCounts::slice_changes)) slices_.insert(pool);
}

void ChangeDriver::ToggleClass() {
  int k = Below(kExtraClasses);
  std::string name = "chaos-extra-" + std::to_string(k) + ".example.com";
  auto path = chaos::kDeviceClasses.ItemPath("", name);
  if (classes_.contains(name)) {
    if (Count(client_->DeleteIfExists(path), &ChangeCounts::class_changes)) classes_.erase(name);
    return;
  }
  // Class 0 serves the fleet's resource name too: a duplicate the mapping reports.
  std::string resource = k == 0 ? std::string(chaos::kExtendedResource)
                                : "example.com/chaos-extra-" + std::to_string(k);
  json cls =
      json::parse(DeviceClassManifest(name, resource, FakeGpuModelSelector(chaos::kExtraModel)));
  cls["metadata"]["labels"] = Labels();
  auto applied = client_->Apply(path, cls, "chaos-driver", true);
  if (Count(applied.status(), &ChangeCounts::class_changes)) classes_.insert(name);
}

void ChangeDriver::CreatePod() {
  if (pods_.size() >= kMaxPods) return DeletePod();
  std::string name = "chaos-pod-" + std::to_string(next_pod_++);
  json pod = json::parse(ExtendedResourcePodManifest(name, ns_, chaos::kExtendedResource));
  pod["metadata"]["labels"] = Labels();
  auto created = client_->Create(chaos::kPods, ns_, pod);
  if (Count(created.status(), &ChangeCounts::pod_changes)) pods_.insert(name);
}

void ChangeDriver::DeletePod() {
  if (pods_.empty()) return;
  auto it = pods_.begin();
  std::advance(it, Below(static_cast<int>(pods_.size())));
  std::string name = *it;
  kube::DeleteOptions now;
  now.grace_period_seconds = 0;  // no kubelet would ever confirm a graceful one
  if (Count(client_->DeleteIfExists(chaos::kPods.ItemPath(ns_, name), now),
            &ChangeCounts::pod_changes)) {
    pods_.erase(name);
  }
}

}  // namespace dra::testing
