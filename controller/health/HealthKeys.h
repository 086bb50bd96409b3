#pragma once

#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "src/cache/StoreReader.h"

namespace dra::health {

// Which DeviceHealths (by name) a change of a ResourceSlice or a
// ResourceClaim may give another answer, so that the "devicehealth"
// controller reconciles them again. Pure reads of `healths`.
class HealthKeys {
 public:
  // Those naming the slice's pool (a device of it, or the whole pool), and
  // every one naming its device by uuid or node + index, of the slice's
  // driver or of any driver: the slice may add, move or remove a device with
  // that uuid or index (a second one makes the target ambiguous).
  static std::vector<std::string> ForSlice(const kube::StoreReader<api::DeviceHealth>& healths,
                                           const api::ResourceSlice& slice);
  // The tainted ones naming a device the claim holds (their affected Pods);
  // other claims would only flood the queue.
  static std::vector<std::string> ForClaim(const kube::StoreReader<api::DeviceHealth>& healths,
                                           const api::ResourceClaim& claim);

  // The target as status.resolved last named it, for a target by uuid or
  // node + index; the health itself otherwise.
  static api::DeviceHealth ResolvedTarget(const api::DeviceHealth& health);
};

}  // namespace dra::health
