#include <gtest/gtest.h>

#include "controller/app/ControllerSelection.h"

namespace dra::app {
namespace {

class NamedFeature : public feature::Feature {
 public:
  NamedFeature(std::string name, std::vector<std::string_view> needs = {})
      : name_(std::move(name)), needs_(std::move(needs)) {}
  std::string_view Name() const override { return name_; }
  std::vector<std::string_view> Needs() const override { return needs_; }
  void DeclareFlags(kube::FlagSet&) override {}
  kube::Status ParseFlags(const kube::FlagSet&) override { return kube::Status::Ok(); }
  kube::Status Wire(feature::FeatureContext&) override { return kube::Status::Ok(); }

 private:
  std::string name_;
  std::vector<std::string_view> needs_;
};

FeatureList Features() {
  FeatureList list;
  list.push_back(std::make_unique<NamedFeature>("device-health"));
  list.push_back(std::make_unique<NamedFeature>("extended-resources"));
  list.push_back(std::make_unique<NamedFeature>("kubelet-health-reports",
                                                std::vector<std::string_view>{"device-health"}));
  return list;
}

std::vector<std::string> Names(const FeatureList& features) {
  std::vector<std::string> names;
  for (const auto& f : features) names.emplace_back(f->Name());
  return names;
}

TEST(ControllerSelectionTest, StarIsEveryFeatureInOrder) {
  auto features = Features();
  auto selection = ControllerSelection::Parse("*", features);
  ASSERT_TRUE(selection.ok()) << selection.status().ToString();
  selection->Filter(features);
  EXPECT_EQ(Names(features), (std::vector<std::string>{"device-health", "extended-resources",
                                                       "kubelet-health-reports"}));
  EXPECT_TRUE(selection->reasons().empty());
}

TEST(ControllerSelectionTest, ItemsApplyLeftToRight) {
  auto features = Features();
  auto selection = ControllerSelection::Parse(" *, -extended-resources ", features);
  ASSERT_TRUE(selection.ok()) << selection.status().ToString();
  EXPECT_FALSE(selection->Enabled("extended-resources"));
  EXPECT_TRUE(selection->Enabled("device-health"));
  auto only = ControllerSelection::Parse("extended-resources", features);
  ASSERT_TRUE(only.ok());
  EXPECT_TRUE(only->Enabled("extended-resources"));
  EXPECT_FALSE(only->Enabled("device-health"));
  auto back = ControllerSelection::Parse("-device-health,device-health", features);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->Enabled("device-health"));
}

TEST(ControllerSelectionTest, AFeatureIsOffWithWhatItFeeds) {
  auto features = Features();
  auto selection = ControllerSelection::Parse("*,-device-health", features);
  ASSERT_TRUE(selection.ok());
  EXPECT_FALSE(selection->Enabled("kubelet-health-reports"));
  selection->Filter(features);
  EXPECT_EQ(Names(features), (std::vector<std::string>{"extended-resources"}));
  EXPECT_EQ(selection->reasons(),
            (std::vector<std::string>{
                "device-health is off (--controllers)",
                "kubelet-health-reports is off: it feeds device-health, which --controllers "
                "turns off"}));
  EXPECT_EQ(selection->off(),
            (std::vector<std::string>{"device-health", "kubelet-health-reports"}));
}

TEST(ControllerSelectionTest, UnknownOrEmptyItemsAreUsageErrors) {
  auto features = Features();
  for (const char* spec : {"gpu-health", "*,-nope", "*,,extended-resources", "", "-*"}) {
    auto selection = ControllerSelection::Parse(spec, features);
    ASSERT_FALSE(selection.ok()) << spec;
    EXPECT_EQ(selection.status().code(), kube::StatusCode::kInvalidArgument);
    EXPECT_NE(selection.status().message().find("known: *, device-health, extended-resources"),
              std::string::npos)
        << selection.status().message();
  }
}

}  // namespace
}  // namespace dra::app
