#include "controller/check/CheckReport.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "controller/report/TextTable.h"

namespace dra::check {

int CheckReport::Count(CheckResult::Outcome outcome) const {
  return static_cast<int>(std::count_if(results_.begin(), results_.end(),
                                        [&](const auto& r) { return r.outcome == outcome; }));
}

std::string CheckReport::FormatTable() const {
  report::TextTable table({"CHECK", "RESULT", "DETAIL"});
  for (const auto& r : results_) {
    table.Add({r.name, std::string(CheckResult::OutcomeName(r.outcome)), r.detail});
  }
  using O = CheckResult::Outcome;
  return table.Render() + "\n" + std::to_string(Count(O::kPass)) + " passed, " +
         std::to_string(Count(O::kWarn)) + " warnings, " + std::to_string(Count(O::kFail)) +
         " failed\n";
}

std::string CheckReport::FormatJson() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : results_) {
    rows.push_back(
        {{"name", r.name}, {"result", CheckResult::OutcomeName(r.outcome)}, {"detail", r.detail}});
  }
  using O = CheckResult::Outcome;
  nlohmann::json doc = {
      {"results", rows},
      {"summary",
       {{"pass", Count(O::kPass)}, {"warn", Count(O::kWarn)}, {"fail", Count(O::kFail)}}}};
  return doc.dump(2) + "\n";
}

}  // namespace dra::check
