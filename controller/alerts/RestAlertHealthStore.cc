#include "controller/alerts/RestAlertHealthStore.h"

#include "controller/alerts/AlertLedger.h"
#include "controller/api/DeviceHealth.h"
#include "controller/health/RestHealthWriter.h"
#include "controller/health/SourcedHealth.h"
#include "src/base/NlohmannFields.h"

namespace dra::alerts {

using kube::NlohmannFields;

kube::Result<StoredAlerts> RestAlertHealthStore::Read(const std::string& name) {
  auto current = client_->Get(api::DeviceHealth::kResource.ItemPath("", name));
  if (!current.ok() && current.status().code() == kube::StatusCode::kNotFound) {
    return StoredAlerts{};
  }
  if (!current.ok()) return current.status().WithContext("reading DeviceHealth " + name);
  const auto& meta = NlohmannFields::At(*current, "metadata");
  StoredAlerts stored;
  stored.exists = true;
  stored.ours = NlohmannFields::Text(NlohmannFields::At(NlohmannFields::At(meta, "labels"),
                                                        health::kSourceLabel)) == "alertmanager";
  stored.ledger = NlohmannFields::Text(
      NlohmannFields::At(NlohmannFields::At(meta, "annotations"), AlertLedger::kAnnotation));
  return stored;
}

kube::Result<health::SourcedWrite> RestAlertHealthStore::Write(
    const health::SourcedHealth& health) {
  return writer_->Apply(health);
}

}  // namespace dra::alerts
