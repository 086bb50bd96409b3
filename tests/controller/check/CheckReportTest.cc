#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "controller/check/CheckReport.h"
#include "controller/check/Checklist.h"

namespace dra::check {
namespace {

TEST(CheckReportTest, TableHasOneRowPerCheckAndASummary) {
  CheckReport report({CheckResult::Pass("a", "fine"), CheckResult::Warn("b", "hmm")});
  std::string table = report.FormatTable();
  EXPECT_NE(table.find("CHECK"), std::string::npos);
  EXPECT_NE(table.find("b       warn     hmm"), std::string::npos) << table;
  EXPECT_NE(table.find("1 passed, 1 warnings, 0 failed"), std::string::npos) << table;
  EXPECT_FALSE(report.failed());
}

TEST(CheckReportTest, JsonCarriesResultsAndFailMakesItFailed) {
  CheckReport report({CheckResult::Fail("x", "broken")});
  auto doc = nlohmann::json::parse(report.FormatJson());
  EXPECT_EQ(doc["results"][0]["name"], "x");
  EXPECT_EQ(doc["results"][0]["result"], "fail");
  EXPECT_EQ(doc["summary"]["fail"], 1);
  EXPECT_TRUE(report.failed());
}

TEST(ChecklistTest, MissingSnapshotFailsOnceWithTheReason) {
  CheckInputs in;
  in.version.Set("v1.37.2");
  in.snapshot_error = "forbidden: list pods";
  auto results = Checklist::Run(in);
  int snapshot_rows = 0;
  for (const auto& r : results) {
    if (r.name == "cluster-snapshot") {
      ++snapshot_rows;
      EXPECT_EQ(r.outcome, CheckResult::Outcome::kFail);
      EXPECT_NE(r.detail.find("forbidden: list pods"), std::string::npos);
    }
    EXPECT_NE(r.name, "drivers-and-pools");
  }
  EXPECT_EQ(snapshot_rows, 1);
}

TEST(ChecklistTest, HealthyInputsHaveNoFail) {
  CheckInputs in;
  in.version.Set("v1.37.2");
  in.served.Set({"deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices",
                 "devicetaintrules"});
  in.snapshot = std::make_shared<report::ClusterSnapshot>();
  in.health.Set({});
  in.claim_conditions.Set({});
  in.deployment.not_found = true;
  in.lease.not_found = true;
  in.source_policy.Set(true);
  in.taint_rules_api.Set("resource.k8s.io/v1");
  in.extended_resources.Set(true);
  CheckReport report(Checklist::Run(in));
  EXPECT_FALSE(report.failed()) << report.FormatTable();
  EXPECT_EQ(report.results().size(), 22u);  // mapping-order-hazard among them
}

}  // namespace
}  // namespace dra::check
