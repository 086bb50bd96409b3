#pragma once

#include <chrono>

namespace dra::extended {

// What `run` can tune in the extended-resource features (ExtendedFeature
// parses them from `run`'s flags).
struct ExtendedOptions {
  // --repair-extended-resource-mapping: touch the surviving class of an order hazard.
  bool repair_mapping = false;
  // --extended-resource-leak-grace-period: how long an implicit claim may
  // outlive its Pod before the leak audit reports it.
  std::chrono::seconds leak_grace_period{300};
  // --delete-leaked-claims: delete reported leaked claims (LeakedClaimRemover).
  bool delete_leaked_claims = false;
};

}  // namespace dra::extended
