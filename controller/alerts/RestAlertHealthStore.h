#pragma once

#include <memory>

#include "controller/alerts/AlertHealthStore.h"
#include "controller/health/RestSourcedHealthWriter.h"
#include "src/client/RestClient.h"

namespace dra::alerts {

// AlertHealthStore on the REST API (reads with GET, writes through
// health::RestSourcedHealthWriter).
class RestAlertHealthStore : public AlertHealthStore {
 public:
  explicit RestAlertHealthStore(std::shared_ptr<kube::RestClient> client)
      : client_(client), writer_(std::move(client)) {}

  kube::Result<StoredAlerts> Read(const std::string& name) override;
  kube::Result<health::SourcedWrite> Write(const health::SourcedHealth& health) override;

 private:
  std::shared_ptr<kube::RestClient> client_;
  health::RestSourcedHealthWriter writer_;
};

}  // namespace dra::alerts
