#include <gtest/gtest.h>

#include "tests/chaos/MetricsText.h"

namespace dra::testing {
namespace {

constexpr char kPage[] =
    "# TYPE workqueue_depth gauge\n"
    "workqueue_depth{name=\"a\"} 2\n"
    "workqueue_depth{name=\"b\"} 0\n"
    "# TYPE rest_client_requests_total counter\n"
    "rest_client_requests_total{code=\"200\",method=\"GET\",host=\"x\"} 7\n"
    "dra_controller_build_info{version=\"0.1.0 (a b)\"} 1\n";

TEST(MetricsTextTest, ParsesSeriesTypesAndSums) {
  MetricsText m = MetricsText::Parse(kPage);
  EXPECT_EQ(m.samples().size(), 4u);
  EXPECT_EQ(m.TypeOf("workqueue_depth"), "gauge");
  EXPECT_EQ(m.Sum("workqueue_depth"), 2);
  EXPECT_EQ(m.Sum("workqueue_depth", "name=\"b\""), 0);
  EXPECT_EQ(m.samples().at("dra_controller_build_info{version=\"0.1.0 (a b)\"}"), 1);
}

TEST(MetricsTextTest, DescribesDifferences) {
  std::map<std::string, double> a{{"x", 1}, {"y", 2}}, b{{"x", 1}, {"y", 3}, {"z", 0}};
  EXPECT_EQ(DescribeDifference(a, a), "");
  std::string d = DescribeDifference(a, b);
  EXPECT_NE(d.find("y: 2.000000 != 3.000000"), std::string::npos) << d;
  EXPECT_NE(d.find("z only in right"), std::string::npos) << d;
}

}  // namespace
}  // namespace dra::testing
