#include <gtest/gtest.h>

#include <memory>

#include "controller/extended/LeakAudit.h"

namespace dra::extended {
namespace {

std::shared_ptr<const api::ResourceClaim> ImplicitClaim(const std::string& owner,
                                                        const std::string& uid,
                                                        bool allocated = true) {
  auto claim = std::make_shared<api::ResourceClaim>();
  claim->meta.namespace_name = "team";
  claim->meta.name = owner + "-extended-resources-x";
  claim->extended_resource_claim = true;
  claim->allocated = allocated;
  claim->controller = api::ResourceClaim::OwnerReference{"Pod", owner, uid};
  return claim;
}

std::shared_ptr<const api::PodView> PodOf(const std::string& name, const std::string& uid,
                                          const std::string& phase = "Running") {
  auto pod = std::make_shared<api::PodView>();
  pod->meta.namespace_name = "team";
  pod->meta.name = name;
  pod->meta.uid = uid;
  pod->phase = phase;
  return pod;
}

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
