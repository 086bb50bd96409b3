#include <gtest/gtest.h>

#include "controller/metrics/DeviceInfoCollector.h"

namespace dra::metrics {
namespace {

TEST(DeviceInfoCollectorTest, LabelForKeepsTheNameAndAvoidsClashes) {
  EXPECT_EQ(DeviceInfoCollector::LabelFor("uuid"), "uuid");
  EXPECT_EQ(DeviceInfoCollector::LabelFor("gpu.nvidia.com/productName"), "productName");
  EXPECT_EQ(DeviceInfoCollector::LabelFor("driver-version"), "driver_version");
  EXPECT_EQ(DeviceInfoCollector::LabelFor("node"), "attribute_node");
  EXPECT_EQ(DeviceInfoCollector::LabelFor("1g"), "attribute_1g");
  EXPECT_EQ(DeviceInfoCollector::LabelFor("x/"), "attribute_");
}

}  // namespace
}  // namespace dra::metrics
