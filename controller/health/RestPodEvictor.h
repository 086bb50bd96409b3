#pragma once

#include <memory>

#include "controller/health/PodEvictor.h"
#include "src/client/RestClient.h"

namespace dra::health {

// POST /api/v1/namespaces/NS/pods/NAME/eviction with a policy/v1 Eviction
// whose deleteOptions carry a UID precondition, so a Pod re-created under the
// same name is never the one evicted. One attempt: a 429 (a disruption budget
// refusing) is returned at once, not retried inside the call.
class RestPodEvictor : public PodEvictor {
 public:
  explicit RestPodEvictor(std::shared_ptr<kube::RestClient> client) : client_(std::move(client)) {}
  kube::Status Evict(const std::string& namespace_name, const std::string& name,
                     const std::string& uid) override;

 private:
  std::shared_ptr<kube::RestClient> client_;
};

}  // namespace dra::health
