#pragma once

#include <memory>

#include "controller/health/SourcedHealthWriter.h"
#include "src/client/RestClient.h"

namespace dra::health {

// SourcedHealthWriter on the REST API: create, or a merge patch guarded by
// the resourceVersion just read (on a conflict read again and retried, four
// attempts in all), so a person's edit between the read and the write is
// never overwritten.
class RestSourcedHealthWriter : public SourcedHealthWriter {
 public:
  explicit RestSourcedHealthWriter(std::shared_ptr<kube::RestClient> client)
      : client_(std::move(client)) {}

  kube::Result<SourcedWrite> Apply(const SourcedHealth& health) override;
  kube::Result<std::optional<api::DeviceHealth>> Get(const std::string& name,
                                                     const std::string& source) override;

  // The spec a SourcedHealth becomes (exposed for tests).
  static nlohmann::json SpecOf(const SourcedHealth& health);

 private:
  kube::Result<SourcedWrite> ApplyOnce(const SourcedHealth& health);

  std::shared_ptr<kube::RestClient> client_;
};

}  // namespace dra::health
