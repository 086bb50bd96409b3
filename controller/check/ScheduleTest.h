#pragma once

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/check/CheckResult.h"
#include "controller/report/ClusterSnapshot.h"
#include "src/client/RestClient.h"

namespace dra::check {

// `check --schedule-test NAMESPACE`: asks the real kube-scheduler. For each
// mapped extended resource a Pod with `limits: {NAME: 1}`, and for each
// DeviceClass a ResourceClaim plus a Pod using it; waits for each Pod's
// PodScheduled verdict (until a deadline), then deletes everything it
// created. Every object carries kLabel, so a run also removes what an
// earlier, killed run left behind; an interrupt stops the waiting and the
// cleanup still runs.
class ScheduleTest {
 public:
  static constexpr const char* kLabel = "dra-controller.dev/check-schedule-test";
  static constexpr const char* kImage = "registry.k8s.io/pause:3.10";

  struct Options {
    std::string namespace_name;
    std::chrono::milliseconds deadline{30000};  // per run, for all verdicts
    std::chrono::milliseconds poll{250};
  };

  ScheduleTest(kube::RestClient& client, Options options, const std::atomic<bool>& interrupted)
      : client_(client), options_(std::move(options)), interrupted_(interrupted) {}

  // One row per probe; a fail row when the namespace cannot be used.
  std::vector<CheckResult> Run(const report::ClusterSnapshot& snapshot);

  // Deletes every labelled Pod and ResourceClaim in the namespace.
  kube::Status DeleteLabelled();

  // The manifests, public for unit tests.
  static nlohmann::json ExtendedResourcePod(const std::string& resource);
  static nlohmann::json Claim(const std::string& device_class);
  static nlohmann::json ClaimPod(const std::string& device_class, const std::string& claim_name);
  // The PodScheduled verdict of `pod`, nullopt while there is none. May throw
  // nlohmann::json::exception on fields of unexpected types.
  static std::optional<CheckResult> ParseVerdict(const std::string& row, const nlohmann::json& pod);

 private:
  struct Probe {
    std::string row;  // the CheckResult name
    std::string pod;  // created Pod name; empty when creation failed
    std::string claim;
    std::optional<CheckResult> verdict;
  };

  void StartExtendedResource(const std::string& resource, std::vector<Probe>& probes);
  void StartClass(const std::string& device_class, std::vector<Probe>& probes);
  void Wait(std::vector<Probe>& probes);
  // The verdict in the Pod's PodScheduled condition, if there is one yet.
  std::optional<CheckResult> Verdict(const Probe& probe);
  void Delete(const std::vector<Probe>& probes);

  kube::RestClient& client_;
  Options options_;
  const std::atomic<bool>& interrupted_;
};

}  // namespace dra::check
