#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include "controller/extended/LeakReconciler.h"
#include "src/base/FakeClock.h"
#include "src/cache/Store.h"
#include "tests/controller/extended/LeakTestObjects.h"

namespace dra::extended {
namespace {

using leak_test::ImplicitClaim;
using leak_test::PodOf;

class LeakReconcilerTest : public ::testing::Test {
 protected:
  LeakReconcilerTest()
      : clock_(std::make_shared<kube::FakeClock>()),
        registry_(std::make_shared<prometheus::Registry>()),
        reconciler_(
            claims_, pods_,
            [this](const kube::ObjectReference& o, const std::string&, const std::string& reason,
                   const std::string&) { events_.push_back(o.name + "|" + reason); },
            clock_, std::chrono::seconds(60), registry_) {}

  std::string Metrics() { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

  std::shared_ptr<kube::FakeClock> clock_;
  std::shared_ptr<prometheus::Registry> registry_;
  kube::Store<api::ResourceClaim> claims_;
  kube::Store<api::PodView> pods_;
  std::vector<std::string> events_;
  LeakReconciler reconciler_;
};

TEST_F(LeakReconcilerTest, ReportsOnceAfterGraceAndClearsWhenReleased) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  auto first = reconciler_.Reconcile("team/p-extended-resources-x");
  EXPECT_EQ(first.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_TRUE(events_.empty());
  clock_->Step(std::chrono::seconds(61));
  reconciler_.Reconcile("team/p-extended-resources-x");
  reconciler_.Reconcile("team/p-extended-resources-x");
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0], "p-extended-resources-x|ExtendedResourceClaimLeaked");
  EXPECT_EQ(reconciler_.leaked(), 1u);
  EXPECT_NE(Metrics().find("dra_controller_extended_resource_leaked_claims 1"), std::string::npos);
  claims_.Erase("team/p-extended-resources-x");
  reconciler_.Reconcile("team/p-extended-resources-x");
  EXPECT_EQ(reconciler_.leaked(), 0u);
  EXPECT_NE(Metrics().find("dra_controller_extended_resource_leaked_claims 0"), std::string::npos);
}

TEST_F(LeakReconcilerTest, LivePodKeepsItsClaim) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  pods_.Upsert(PodOf("p", "u1"));
  EXPECT_EQ(reconciler_.Reconcile("team/p-extended-resources-x").kind,
            kube::ReconcileResult::Kind::kDone);
  clock_->Step(std::chrono::seconds(120));
  reconciler_.Reconcile("team/p-extended-resources-x");
  EXPECT_TRUE(events_.empty());
}

TEST_F(LeakReconcilerTest, PodComingBackWithinGraceIsNoLeak) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  reconciler_.Reconcile("team/p-extended-resources-x");  // Pod not in the cache yet
  pods_.Upsert(PodOf("p", "u1"));
  clock_->Step(std::chrono::seconds(61));
  reconciler_.Reconcile("team/p-extended-resources-x");
  EXPECT_TRUE(events_.empty());
}

// --delete-leaked-claims: the reconciler with a scripted remover.
class LeakReconcilerDeleteTest : public LeakReconcilerTest {
 protected:
  LeakReconcilerDeleteTest()
      : deleting_(
            claims_, pods_,
            [this](const kube::ObjectReference& o, const std::string&, const std::string& reason,
                   const std::string&) { events_.push_back(o.name + "|" + reason); },
            clock_, std::chrono::seconds(60), registry_,
            [this](const api::ResourceClaim& claim) -> kube::Result<LeakedClaimRemover::Outcome> {
              removals_.push_back(claim.meta.name);
              if (failures_ > 0) {
                --failures_;
                return kube::Status(kube::StatusCode::kConflict, "changed");
              }
              if (!answers_.empty()) {
                auto answer = answers_.front();
                answers_.erase(answers_.begin());
                return answer;
              }
              return LeakedClaimRemover::Outcome::kRemoved;
            }) {}

  LeakReconciler deleting_;
  std::vector<std::string> removals_;
  int failures_ = 0;  // answered with a Conflict first
  std::vector<LeakedClaimRemover::Outcome> answers_;
};

TEST_F(LeakReconcilerDeleteTest, RemovesOnlyAfterTheGraceAndOnce) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  deleting_.Reconcile("team/p-extended-resources-x");
  EXPECT_TRUE(removals_.empty());
  clock_->Step(std::chrono::seconds(61));
  EXPECT_EQ(deleting_.Reconcile("team/p-extended-resources-x").kind,
            kube::ReconcileResult::Kind::kDone);
  deleting_.Reconcile("team/p-extended-resources-x");  // the cache still shows it
  EXPECT_EQ(removals_.size(), 1u);
  EXPECT_EQ(events_, (std::vector<std::string>{"p-extended-resources-x|ExtendedResourceClaimLeaked",
                                               "p-extended-resources-x|"
                                               "ExtendedResourceClaimLeakDeleted"}));
  EXPECT_EQ(deleting_.deleted(), 1u);
  EXPECT_EQ(deleting_.leaked(), 0u);
  EXPECT_NE(Metrics().find("dra_controller_extended_resource_leaked_claims_deleted_total 1"),
            std::string::npos);
}

TEST_F(LeakReconcilerDeleteTest, LivePodsClaimIsNeverOfferedForRemoval) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  pods_.Upsert(PodOf("p", "u1"));
  deleting_.Reconcile("team/p-extended-resources-x");
  clock_->Step(std::chrono::seconds(600));
  deleting_.Reconcile("team/p-extended-resources-x");
  EXPECT_TRUE(removals_.empty());
  EXPECT_TRUE(events_.empty());
}

TEST_F(LeakReconcilerDeleteTest, AFailedRemovalIsRetriedAndAKeptClaimIsNotCounted) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  failures_ = 1;
  answers_.push_back(LeakedClaimRemover::Outcome::kKept);
  deleting_.Reconcile("team/p-extended-resources-x");
  clock_->Step(std::chrono::seconds(61));
  EXPECT_EQ(deleting_.Reconcile("team/p-extended-resources-x").kind,
            kube::ReconcileResult::Kind::kError);
  EXPECT_EQ(deleting_.Reconcile("team/p-extended-resources-x").kind,
            kube::ReconcileResult::Kind::kDone);
  EXPECT_EQ(removals_.size(), 2u);
  EXPECT_EQ(deleting_.deleted(), 0u);
  EXPECT_EQ(deleting_.leaked(), 1u);
  EXPECT_EQ(events_.size(), 1u);  // the leak, reported once
  EXPECT_NE(Metrics().find("dra_controller_extended_resource_leaked_claims_deleted_total 0"),
            std::string::npos);
}

TEST_F(LeakReconcilerDeleteTest, AClaimFoundGoneIsNotCountedAsDeleted) {
  claims_.Upsert(ImplicitClaim("p", "u1"));
  answers_.push_back(LeakedClaimRemover::Outcome::kGone);
  deleting_.Reconcile("team/p-extended-resources-x");
  clock_->Step(std::chrono::seconds(61));
  deleting_.Reconcile("team/p-extended-resources-x");
  EXPECT_EQ(deleting_.deleted(), 0u);
  EXPECT_EQ(deleting_.leaked(), 0u);
  EXPECT_EQ(events_.size(), 1u);
}

}  // namespace
}  // namespace dra::extended
