#pragma once

#include <memory>

#include "controller/alerts/AlertHealthStore.h"
#include "controller/health/SourcedHealthWriter.h"
#include "src/client/RestClient.h"

namespace dra::alerts {

// AlertHealthStore on the REST API (reads with GET, writes through `writer`,
// a health::RestSourcedHealthWriter, behind a health::RuleFirstWriter where
// device health writes rules).
class RestAlertHealthStore : public AlertHealthStore {
 public:
  RestAlertHealthStore(std::shared_ptr<kube::RestClient> client,
                       std::shared_ptr<health::SourcedHealthWriter> writer)
      : client_(std::move(client)), writer_(std::move(writer)) {}

  kube::Result<StoredAlerts> Read(const std::string& name) override;
  kube::Result<health::SourcedWrite> Write(const health::SourcedHealth& health) override;

 private:
  std::shared_ptr<kube::RestClient> client_;
  std::shared_ptr<health::SourcedHealthWriter> writer_;
};

}  // namespace dra::alerts
