#include <gtest/gtest.h>

#include "controller/metrics/DeviceAttributeList.h"

namespace dra::metrics {
namespace {

TEST(DeviceAttributeListTest, SplitsTrimsAndDropsEmptyEntries) {
  auto parsed = DeviceAttributeList::Parse(" uuid, gpu.nvidia.com/productName ,,");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, (std::vector<std::string>{"uuid", "gpu.nvidia.com/productName"}));
  EXPECT_TRUE(DeviceAttributeList::Parse("")->empty());
}

TEST(DeviceAttributeListTest, RefusesNamesAnAttributeCannotHave) {
  for (const char* bad : {"has space", "9lives", "/uuid", "Upper.Domain/uuid", "a-b", "uuid=1"}) {
    auto parsed = DeviceAttributeList::Parse(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
  }
}

TEST(DeviceAttributeListTest, RefusesTwoNamesExportedUnderOneLabel) {
  auto parsed = DeviceAttributeList::Parse("uuid,gpu.example.com/uuid");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("label uuid twice"), std::string::npos)
      << parsed.status().message();
}

}  // namespace
}  // namespace dra::metrics
