#pragma once

#include <string>

#include "controller/health/SourcedHealthWriter.h"
#include "src/base/Result.h"

namespace dra::alerts {

// A GPU's DeviceHealth as the webhook finds it.
struct StoredAlerts {
  bool exists = false;
  bool ours = false;   // labelled dra-controller.dev/source=alertmanager
  std::string ledger;  // the AlertLedger annotation, "" when absent
};

// Where the webhook reads and writes DeviceHealths; behind an interface so
// the receiver is tested without an API server (RestAlertHealthStore is the
// real one). Implementations are thread-safe.
class AlertHealthStore {
 public:
  virtual ~AlertHealthStore() = default;
  virtual kube::Result<StoredAlerts> Read(const std::string& name) = 0;
  // health::SourcedHealthWriter::Apply: never touches an object not ours.
  virtual kube::Result<health::SourcedWrite> Write(const health::SourcedHealth& health) = 0;
};

}  // namespace dra::alerts
