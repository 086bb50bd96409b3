#pragma once

#include <string>
#include <vector>

#include "controller/check/CheckResult.h"

namespace dra::check {

// Renders check results as a CHECK/RESULT/DETAIL table or as JSON, and
// decides the exit code (1 on any fail).
class CheckReport {
 public:
  explicit CheckReport(std::vector<CheckResult> results) : results_(std::move(results)) {}

  std::string FormatTable() const;
  // {"results":[{"name","result","detail"}...],"summary":{"pass","warn","fail"}}
  std::string FormatJson() const;
  bool failed() const { return Count(CheckResult::Outcome::kFail) > 0; }
  int Count(CheckResult::Outcome outcome) const;
  const std::vector<CheckResult>& results() const { return results_; }

 private:
  std::vector<CheckResult> results_;
};

}  // namespace dra::check
