#pragma once

#include <chrono>

namespace dra::extended {

// `run`'s flags for the extended-resource features (all off by default).
struct ExtendedOptions {
  // --repair-extended-resource-mapping: touch the surviving class of an order hazard.
  bool repair_mapping = false;
  // --delete-leaked-claims (not implemented yet; see README "Extended resources").
  bool delete_leaked_claims = false;
  std::chrono::seconds leak_grace_period{300};
};

}  // namespace dra::extended
