#include <gtest/gtest.h>

#include <memory>

#include "controller/extended/LeakAudit.h"
#include "tests/controller/extended/LeakTestObjects.h"

namespace dra::extended {
namespace {

using leak_test::ImplicitClaim;
using leak_test::PodOf;

TEST(LeakAuditTest, JudgesLikeTheClaimController) {
  auto claim = ImplicitClaim("p", "u1");
  EXPECT_EQ(LeakAudit::Why(*claim, PodOf("p", "u1").get()), std::nullopt);
  EXPECT_EQ(LeakAudit::Why(*claim, nullptr), "owner Pod team/p is gone");
  EXPECT_NE(LeakAudit::Why(*claim, PodOf("p", "u2").get())->find("was replaced"),
            std::string::npos);
  EXPECT_EQ(LeakAudit::Why(*claim, PodOf("p", "u1", "Succeeded").get()),
            "owner Pod team/p has finished (Succeeded)");
  // Not allocated, or not an implicit claim: never a leak.
  EXPECT_EQ(LeakAudit::Why(*ImplicitClaim("p", "u1", false), nullptr), std::nullopt);
  auto user_claim = std::make_shared<api::ResourceClaim>(*claim);
  user_claim->extended_resource_claim = false;
  EXPECT_EQ(LeakAudit::Why(*user_claim, nullptr), std::nullopt);
}

}  // namespace
}  // namespace dra::extended
