#pragma once

#include <vector>

#include "controller/check/CheckInputs.h"
#include "controller/check/CheckResult.h"

namespace dra::check {

// Runs every check on one set of inputs, in the order an operator reads
// them: API, devices, classes, health, controller, claims. Checks that need
// the snapshot fail together (naming why it could not be read) when it is missing.
class Checklist {
 public:
  static std::vector<CheckResult> Run(const CheckInputs& in);

 private:
  static void SnapshotChecks(const CheckInputs& in, std::vector<CheckResult>& out);
};

}  // namespace dra::check
