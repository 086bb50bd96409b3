#include <gtest/gtest.h>

#include "controller/alerts/AlertLabelFilter.h"

namespace dra::alerts {
namespace {

Alert WithLabels(std::map<std::string, std::string> labels) {
  Alert alert;
  alert.firing = true;
  alert.labels = std::move(labels);
  alert.labels.emplace("alertname", "GPUFellOffTheBus");
  return alert;
}

TEST(AlertLabelFilterTest, EmptyLetsEveryAlertThrough) {
  auto filter = AlertLabelFilter::Parse("");
  ASSERT_TRUE(filter.ok());
  EXPECT_TRUE(filter->empty());
  EXPECT_TRUE(filter->Check(WithLabels({})).ok());
}

TEST(AlertLabelFilterTest, AlertsNeedEveryRequiredValue) {
  auto filter = AlertLabelFilter::Parse("job=dcgm-exporter, namespace=gpu-operator");
  ASSERT_TRUE(filter.ok()) << filter.status().ToString();
  EXPECT_TRUE(
      filter->Check(WithLabels({{"job", "dcgm-exporter"}, {"namespace", "gpu-operator"}})).ok());
  kube::Status other_job =
      filter->Check(WithLabels({{"job", "tenant-exporter"}, {"namespace", "gpu-operator"}}));
  EXPECT_EQ(other_job.code(), kube::StatusCode::kForbidden);
  EXPECT_NE(other_job.message().find("job=\"tenant-exporter\", not the required "
                                     "job=\"dcgm-exporter\""),
            std::string::npos)
      << other_job.ToString();
  kube::Status missing = filter->Check(WithLabels({{"job", "dcgm-exporter"}}));
  EXPECT_NE(missing.message().find("no namespace label"), std::string::npos) << missing.ToString();
}

TEST(AlertLabelFilterTest, ForgedValuesAreQuotedAndBounded) {
  auto filter = AlertLabelFilter::Parse("job=dcgm-exporter");
  ASSERT_TRUE(filter.ok());
  kube::Status refused =
      filter->Check(WithLabels({{"job", "x\nforged " + std::string(5000, 'y')}}));
  EXPECT_EQ(refused.message().find('\n'), std::string::npos);
  EXPECT_LT(refused.message().size(), 400u);
}

TEST(AlertLabelFilterTest, MalformedListsAreRefused) {
  EXPECT_FALSE(AlertLabelFilter::Parse("job").ok());
  EXPECT_FALSE(AlertLabelFilter::Parse("=x").ok());
  EXPECT_FALSE(AlertLabelFilter::Parse("job=a,job=b").ok());
}

}  // namespace
}  // namespace dra::alerts
