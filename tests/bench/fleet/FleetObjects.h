#pragma once

#include <string>
#include <vector>

#include "tests/bench/fleet/FleetSizes.h"

namespace dra::bench {

// The JSON of the replayed fleet's objects, as kube-apiserver lists them.
class FleetObjects {
 public:
  // `format` with one int, e.g. Fmt("team-%02d", 3) is "team-03".
  static std::string Fmt(const char* format, int n);
  static std::string NodeName(int n);
  // A UID unique per (kind, n).
  static std::string Uid(int kind, int n);

  static std::string Node(int n);
  // Node n's gpu and nic slices and, on every mig_every-th node, its mig
  // counter and partition slices.
  static void AppendSlices(const FleetSizes& s, int n, std::vector<std::string>& out);
  static std::string DeviceClass(const std::string& kind, bool extended);
  // A Pod as the API server lists it; `gpu_claim` names its implicit claim.
  static std::string Pod(const std::string& name, const std::string& ns, const std::string& uid,
                         int rv, const std::string& node, const std::string& gpu_claim, bool gpu);
  // The implicit claim of Pod `pod`, allocated gpu-<device> of `node` and reserved.
  static std::string Claim(const std::string& name, const std::string& ns, const std::string& pod,
                           const std::string& pod_uid, int n, const std::string& node, int device);
  static std::string Health(int h, int nodes, int generation, int rv, const std::string& state);

 private:
  static std::string Meta(const std::string& name, const std::string& ns, const std::string& uid,
                          int rv);
  static std::string SliceHead(const std::string& name, const std::string& driver, int n, int count,
                               int uid);
};

}  // namespace dra::bench
