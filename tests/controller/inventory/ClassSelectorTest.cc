#include <gtest/gtest.h>

#include "controller/inventory/CelDeviceInput.h"
#include "controller/inventory/ClassSelector.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::testing {
namespace {

using inventory::ClassSelector;

class ClassSelectorTest : public ::testing::Test {
 protected:
  cel::ProgramCache cache_;
  cel::Device gpu_ = inventory::ToCelDevice(Gpu("gpu-0", 80, "gpu-80g"), "gpu.example.com");
};

TEST_F(ClassSelectorTest, EverySelectorMustHold) {
  auto both = ClassSelector::Compile(
      std::vector<std::string>{R"(device.driver == "gpu.example.com")",
                               R"(device.attributes["gpu.example.com"].model == "gpu-80g")"},
      cache_);
  auto one_false = ClassSelector::Compile(
      std::vector<std::string>{R"(device.driver == "gpu.example.com")",
                               R"(device.attributes["gpu.example.com"].model == "x")"},
      cache_);
  std::optional<ClassSelector::Failure> failure;
  EXPECT_TRUE(both.Matches(gpu_, &failure));
  EXPECT_FALSE(one_false.Matches(gpu_, &failure));
  EXPECT_FALSE(failure.has_value());
  EXPECT_TRUE(ClassSelector::Compile(std::vector<std::string>{}, cache_).Matches(gpu_, nullptr));
}

TEST_F(ClassSelectorTest, CompileErrorMatchesNothingAndNamesTheExpression) {
  auto selector =
      ClassSelector::Compile(std::vector<std::string>{"true", "device.driver ==", "true"}, cache_);
  EXPECT_TRUE(selector.has_compile_error());
  std::optional<ClassSelector::Failure> failure;
  EXPECT_FALSE(selector.Matches(gpu_, &failure));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->expression, "device.driver ==");
  EXPECT_FALSE(failure->message.empty());
  EXPECT_TRUE(ClassSelector::Compile(std::vector<std::string>{""}, cache_).has_compile_error());
}

TEST_F(ClassSelectorTest, RuntimeErrorMatchesNothing) {
  auto selector = ClassSelector::Compile(
      std::vector<std::string>{R"(device.attributes["gpu.example.com"].nope == 1)"}, cache_);
  EXPECT_FALSE(selector.has_compile_error());
  std::optional<ClassSelector::Failure> failure;
  EXPECT_FALSE(selector.Matches(gpu_, &failure));
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->message.find("nope"), std::string::npos) << failure->message;
}

}  // namespace
}  // namespace dra::testing
