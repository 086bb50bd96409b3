#include <gtest/gtest.h>

#include "controller/inventory/ClassUnusable.h"

namespace dra::testing {
namespace {

TEST(ClassUnusableTest, DescribeNamesClassDeviceAndMessage) {
  inventory::ClassUnusable unusable{
      "mig-1g", {"gpu.example.com", "node-a", "gpu-0"}, "x", "no such key: flaky"};
  EXPECT_EQ(unusable.Describe(),
            "class mig-1g unusable: selector error on device gpu.example.com/node-a/gpu-0: no "
            "such key: flaky");
}

}  // namespace
}  // namespace dra::testing
