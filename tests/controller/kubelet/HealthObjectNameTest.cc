#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "controller/kubelet/HealthObjectName.h"

namespace dra::kubelet {
namespace {

bool IsDns1123Label(const std::string& name) {
  static const std::regex kLabel("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return name.size() <= 63 && std::regex_match(name, kLabel);
}

TEST(HealthObjectNameTest, ReadableDeterministicAndDistinct) {
  inventory::DeviceKey gpu{"gpu.example.com", "node-a", "gpu-0"};
  std::string name = HealthObjectName::For(gpu);
  EXPECT_TRUE(name.starts_with("kubelet-node-a-gpu-0-")) << name;
  EXPECT_TRUE(IsDns1123Label(name)) << name;
  EXPECT_EQ(name, HealthObjectName::For(gpu));
  EXPECT_NE(name, HealthObjectName::For({"other.example.com", "node-a", "gpu-0"}))
      << "the driver is not in the readable part but is in the hash";
}

TEST(HealthObjectNameTest, LongAndOddNamesStayLabels) {
  std::set<std::string> names;
  std::string long_pool(200, 'p');
  for (const inventory::DeviceKey& key : std::vector<inventory::DeviceKey>{
           {"gpu.example.com", long_pool, "gpu-0"},
           {"gpu.example.com", long_pool, "gpu-1"},
           {"gpu.example.com", "Pool/With.Dots", "GPU_7"},
           {"gpu.example.com", "-", "-"},
           {"gpu.example.com", "pool", std::string(100, 'd') + "-"}}) {
    std::string name = HealthObjectName::For(key);
    EXPECT_TRUE(IsDns1123Label(name)) << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 5u);
  EXPECT_TRUE(HealthObjectName::For({"d", std::string(200, 'p'), "gpu-1"}).find("gpu-1-") !=
              std::string::npos)
      << "a cut keeps the device's end";
}

}  // namespace
}  // namespace dra::kubelet
