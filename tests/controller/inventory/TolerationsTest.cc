#include <gtest/gtest.h>

#include "controller/inventory/Tolerations.h"

namespace dra::testing {
namespace {

using api::DeviceTaint;
using api::DeviceToleration;
using api::TaintEffect;

DeviceTaint Taint(std::string key, std::string value, TaintEffect effect) {
  return {std::move(key), std::move(value), effect, "", 0};
}

DeviceToleration Toleration(std::string key, std::string value, DeviceToleration::Operator op,
                            std::optional<TaintEffect> effect = std::nullopt) {
  DeviceToleration t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.op = op;
  t.effect = effect;
  return t;
}

TEST(TolerationsTest, BlockingTaintsNeedAMatchingToleration) {
  std::vector<DeviceTaint> taints{Taint("health", "bad", TaintEffect::kNoSchedule),
                                  Taint("drain", "", TaintEffect::kNoExecute)};
  EXPECT_EQ(inventory::UntoleratedTaints(taints, {}).size(), 2u);
  auto left = inventory::UntoleratedTaints(
      taints, std::vector<DeviceToleration>{
                  Toleration("health", "bad", DeviceToleration::Operator::kEqual)});
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].key, "drain");
  EXPECT_TRUE(
      inventory::UntoleratedTaints(taints, std::vector<DeviceToleration>{Toleration(
                                               "", "", DeviceToleration::Operator::kExists)})
          .empty());
}

TEST(TolerationsTest, EffectAndValueMustAgree) {
  std::vector<DeviceTaint> taints{Taint("health", "bad", TaintEffect::kNoExecute)};
  EXPECT_EQ(
      inventory::UntoleratedTaints(
          taints, std::vector<DeviceToleration>{Toleration(
                      "health", "", DeviceToleration::Operator::kExists, TaintEffect::kNoSchedule)})
          .size(),
      1u);
  EXPECT_EQ(inventory::UntoleratedTaints(taints,
                                         std::vector<DeviceToleration>{Toleration(
                                             "health", "good", DeviceToleration::Operator::kEqual)})
                .size(),
            1u);
  EXPECT_EQ(inventory::UntoleratedTaints(
                taints, std::vector<DeviceToleration>{Toleration(
                            "health", "bad", DeviceToleration::Operator::kUnknown)})
                .size(),
            1u);
}

TEST(TolerationsTest, NoneAndUnknownEffectsNeverBlock) {
  DeviceTaint future = Taint("x", "", TaintEffect::kUnknown);
  future.unknown_effect = "NoAllocateOnTuesdays";
  EXPECT_TRUE(
      inventory::UntoleratedTaints({Taint("note", "", TaintEffect::kNone), future}, {}).empty());
}

}  // namespace
}  // namespace dra::testing
