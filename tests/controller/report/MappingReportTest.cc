#include <gtest/gtest.h>

#include "controller/extended/MappingAudit.h"
#include "controller/report/MappingReport.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::report {

using extended::ExtendedResourceMapping;
using extended::MappingAudit;

namespace {

using dra::testing::MappedClass;

TEST(MappingReportTest, ExplicitThenImplicitWithCountsAndFindings) {
  inventory::Inventory inventory;
  std::vector<std::shared_ptr<const api::DeviceClass>> classes{
      MappedClass("old", 1, "example.com/gpu"), MappedClass("new", 2, "example.com/gpu")};
  for (const auto& c : classes) inventory.ApplyClass(c);
  inventory.ApplySlice(testing::Slice("s1", "node-1", {testing::Gpu("gpu-0", 40, "a100")}));
  auto mapping = ExtendedResourceMapping::Build(classes);
  auto report =
      MappingReport::Build(classes, inventory, MappingAudit::Run(classes, {}, mapping, inventory));
  ASSERT_EQ(report.entries().size(), 3u);
  EXPECT_EQ(report.entries()[0].resource, "example.com/gpu");
  EXPECT_EQ(report.entries()[0].device_class, "new");
  EXPECT_EQ(report.entries()[0].losers, std::vector<std::string>{"old"});
  EXPECT_EQ(report.entries()[0].devices, 1);
  EXPECT_EQ(report.entries()[1].resource, "deviceclass.resource.kubernetes.io/new");
  EXPECT_FALSE(report.entries()[1].is_explicit);
  ASSERT_EQ(report.findings().size(), 1u);
  std::string table = report.FormatTable();
  EXPECT_NE(table.find("Findings: 1"), std::string::npos);
  EXPECT_NE(report.FormatJson().find("\"DuplicateExtendedResourceName\""), std::string::npos);
}

}  // namespace
}  // namespace dra::report
