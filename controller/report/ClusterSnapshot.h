#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/inventory/Inventory.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace dra::report {

// The objects the operator commands (mapping, devices, explain) read, listed
// once from the API server, with an Inventory built from them: what the
// controller's informers would hold, without the controller running.
class ClusterSnapshot {
 public:
  struct Options {
    bool with_pods = false;  // list every Pod (explain needs them; mapping and devices do not)
  };

  static kube::Result<std::unique_ptr<ClusterSnapshot>> List(kube::RestClient& client,
                                                             Options options);

  std::vector<std::shared_ptr<const api::DeviceClass>> classes;
  std::vector<std::shared_ptr<const api::NodeView>> nodes;
  std::vector<std::shared_ptr<const api::PodView>> pods;
  std::vector<std::shared_ptr<const api::ResourceClaim>> claims;
  std::unique_ptr<inventory::Inventory> inventory = std::make_unique<inventory::Inventory>();
  int decode_errors = 0;  // objects skipped because their projection failed

  // The listed claim `namespace_name/name`, or null.
  std::shared_ptr<const api::ResourceClaim> Claim(const std::string& namespace_name,
                                                  const std::string& name) const;
};

}  // namespace dra::report
