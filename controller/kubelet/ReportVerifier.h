#pragma once

#include "controller/api/PodView.h"
#include "controller/inventory/DeviceKey.h"
#include "controller/inventory/Inventory.h"

namespace dra::kubelet {

// Whether a Pod's device report can be true.
enum class ReportTrust { kTrusted, kNotAllocated, kOtherNode };

const char* ReportTrustName(ReportTrust trust);

// Checks a kubelet's device report against the cluster before it counts: a
// Pod's status is whatever its node (or anyone who may write pods/status)
// says, so a report counts only for a device one of the Pod's claims holds
// (reservedFor names the Pod, explicit and extended-resource claims alike,
// adminAccess included) and, for a node-local device, only from a Pod on
// that node.
class ReportVerifier {
 public:
  explicit ReportVerifier(const inventory::Inventory& inventory) : inventory_(inventory) {}

  ReportTrust Check(const api::PodView& pod, const inventory::DeviceKey& device) const;

 private:
  const inventory::Inventory& inventory_;
};

}  // namespace dra::kubelet
