#include <gtest/gtest.h>

#include <map>

#include "controller/extended/PodEventReconciler.h"
#include "src/base/FakeClock.h"
#include "src/cache/Store.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::extended {
namespace {

std::shared_ptr<const api::PodView> PendingPod(const std::string& name, int gpus,
                                               const std::string& message) {
  std::string json = R"({"metadata":{"name":")" + name + R"(","namespace":"team","uid":"u-)" +
                     name +
                     R"("},"spec":{"containers":[{"name":"main","resources":{"limits":
      {"example.com/gpu":")" +
                     std::to_string(gpus) +
                     R"("}}}]},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled",
      "status":"False","reason":"Unschedulable","message":")" +
                     message + R"("}]}})";
  simdjson::dom::parser parser;
  auto pod = api::PodView::FromJson(parser.parse(json).value());
  EXPECT_TRUE(pod.ok());
  return std::make_shared<const api::PodView>(*pod);
}

// A Pod in namespace team, bound to `node`, with one GPU and `status` JSON.
std::shared_ptr<const api::PodView> BoundPod(const std::string& name, const std::string& node,
                                             const std::string& status) {
  std::string json =
      R"({"metadata":{"name":")" + name + R"(","namespace":"team"},"spec":{
      "nodeName":")" +
      node +
      R"(","containers":[{"name":"c","resources":{"limits":{"example.com/gpu":"1"}}}]},
      "status":)" +
      status + "}";
  simdjson::dom::parser parser;
  auto pod = api::PodView::FromJson(parser.parse(json).value());
  EXPECT_TRUE(pod.ok());
  return std::make_shared<const api::PodView>(*pod);
}

class PodEventReconcilerTest : public ::testing::Test {
 protected:
  PodEventReconcilerTest() : clock_(std::make_shared<kube::FakeClock>()) {
    auto c = std::make_shared<api::DeviceClass>();
    c->meta.name = "gpu.example.com";
    c->extended_resource_name = "example.com/gpu";
    classes_.Upsert(c);
    inventory_.ApplyClass(c);
    inventory_.ApplySlice(testing::Slice("s1", "node-1", {testing::Gpu("gpu-0", 40, "a100")}));
    auto node = std::make_shared<api::NodeView>();
    node->meta.name = "node-1";
    nodes_.Upsert(node);
  }

  PodEventReconciler Make(PodEventReconciler::Options options = {},
                          PodEventReconciler::SentFn sent = {}) {
    return PodEventReconciler(
        {pods_, classes_, nodes_, claims_}, inventory_,
        [this](const kube::ObjectReference& o, const std::string&, const std::string& reason,
               const std::string& message) {
          events_.push_back(o.name + "|" + reason + "|" + message);
          messages_[o.uid] = message;
        },
        clock_, options, {}, std::move(sent));
  }

  std::shared_ptr<kube::FakeClock> clock_;
  kube::Store<api::PodView> pods_;
  kube::Store<api::DeviceClass> classes_;
  kube::Store<api::NodeView> nodes_;
  kube::Store<api::ResourceClaim> claims_;
  inventory::Inventory inventory_;
  std::vector<std::string> events_;
  std::map<std::string, std::string> messages_;  // Pod uid -> the last Event's message
};

TEST_F(PodEventReconcilerTest, OneEventPerExplanation) {
  auto reconciler = Make();
  pods_.Upsert(PendingPod("p", 2, "0/1 nodes are available"));
  EXPECT_EQ(reconciler.Reconcile("team/p").kind, kube::ReconcileResult::Kind::kDone);
  reconciler.Reconcile("team/p");
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_NE(events_[0].find("p|ExtendedResourceUnschedulable|0/1 nodes: 1 have 1 free of 1"),
            std::string::npos)
      << events_[0];
  // The scheduler's message changes: the explanation changes, one more Event.
  pods_.Upsert(PendingPod("p", 2, "0/1 nodes are available: retry"));
  reconciler.Reconcile("team/p");
  EXPECT_EQ(events_.size(), 2u);
  pods_.Erase("team/p");
  reconciler.Reconcile("team/p");
  EXPECT_EQ(reconciler.remembered(), 0u);
}

// The Event of a Pending Pod says when the devices a node has cannot all be
// allocated together: node-2's whole GPU and its two halves share counters,
// so three devices are free one by one but not as one claim.
TEST_F(PodEventReconcilerTest, EventNamesDevicesThatCannotBeAllocatedTogether) {
  inventory_.ApplySlice(testing::CounterSlice(
      "mig-counters", "node-2", {testing::Counters("gpu-0", {{"memory", 80LL << 30}})}));
  inventory_.ApplySlice(testing::Slice(
      "mig-devices", "node-2",
      {testing::Partition("full", "gpu-0", 80), testing::Partition("half-0", "gpu-0", 40),
       testing::Partition("half-1", "gpu-0", 40)},
      1, 2));
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = "node-2";
  nodes_.Upsert(node);
  auto reconciler = Make();
  pods_.Upsert(PendingPod("p", 3, "0/2 nodes are available"));
  reconciler.Reconcile("team/p");
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_NE(events_[0].find("0/2 nodes: "), std::string::npos) << events_[0];
  EXPECT_NE(events_[0].find("1 have the devices but cannot allocate them all together: "),
            std::string::npos)
      << events_[0];
}

TEST_F(PodEventReconcilerTest, BacklogIsRateLimitedNotDropped) {
  auto reconciler = Make({3, std::chrono::milliseconds(1000), std::chrono::seconds(30)});
  std::vector<kube::Clock::Duration> waits;
  for (int i = 0; i < 10; ++i) {
    std::string name = "p" + std::to_string(i);
    pods_.Upsert(PendingPod(name, 2, "no"));
    auto result = reconciler.Reconcile("team/" + name);
    if (result.kind == kube::ReconcileResult::Kind::kRequeueAfter) {
      waits.push_back(result.requeue_after);
    }
  }
  EXPECT_EQ(events_.size(), 3u);
  ASSERT_EQ(waits.size(), 7u);
  // Each waiting Pod holds its own future token: 1 s, 2 s, ... 7 s.
  for (size_t i = 0; i < waits.size(); ++i) {
    EXPECT_EQ(waits[i], std::chrono::seconds(i + 1)) << i;
  }
  // Early retries do not take a token or compute anything.
  EXPECT_EQ(reconciler.Reconcile("team/p9").requeue_after, std::chrono::seconds(7));
  clock_->Step(std::chrono::seconds(2));
  reconciler.Reconcile("team/p3");
  reconciler.Reconcile("team/p4");
  EXPECT_EQ(reconciler.Reconcile("team/p5").kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_EQ(events_.size(), 5u);
  for (int i = 0; i < 3; ++i) reconciler.Reconcile("team/p" + std::to_string(i));
  EXPECT_EQ(events_.size(), 5u);  // still no second Event for a Pod
}

TEST_F(PodEventReconcilerTest, PodWithoutExtendedResourcesIsIgnored) {
  auto reconciler = Make();
  simdjson::dom::parser parser;
  auto pod = api::PodView::FromJson(
      parser
          .parse(std::string(R"({"metadata":{"name":"plain","namespace":"team"},"spec":{
      "containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]},"status":{"phase":"Pending",
      "conditions":[{"type":"PodScheduled","status":"False","message":"Insufficient cpu"}]}})"))
          .value());
  pods_.Upsert(std::make_shared<const api::PodView>(*pod));
  reconciler.Reconcile("team/plain");
  EXPECT_TRUE(events_.empty());
}

TEST_F(PodEventReconcilerTest, ScheduledPodWithMissingClaimWarnsAfterGrace) {
  auto reconciler = Make();
  pods_.Upsert(BoundPod("s", "node-1",
                        R"({"phase":"Pending","extendedResourceClaimStatus":
      {"resourceClaimName":"gone"}})"));
  EXPECT_EQ(reconciler.Reconcile("team/s").kind, kube::ReconcileResult::Kind::kRequeueAfter);
  EXPECT_TRUE(events_.empty());
  clock_->Step(std::chrono::seconds(31));
  reconciler.Reconcile("team/s");
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_NE(
      events_[0].find("ExtendedResourceClaimMismatch|Implicit claim gone: claim gone is missing"),
      std::string::npos)
      << events_[0];
}

TEST_F(PodEventReconcilerTest, BoundPodIsJudgedOnItsOwnNode) {
  // node-2 serves the resource by device plugin, so the Pod bound there has
  // no implicit claim to miss; node-1 (listed first) would say it should.
  auto plugin_node = std::make_shared<api::NodeView>();
  plugin_node->meta.name = "node-2";
  plugin_node->allocatable_extended.emplace_back("example.com/gpu", *kube::Quantity::Parse("4"));
  nodes_.Upsert(plugin_node);
  auto reconciler = Make();
  pods_.Upsert(BoundPod("p", "node-2", R"({"phase":"Running"})"));
  EXPECT_EQ(reconciler.Reconcile("team/p").kind, kube::ReconcileResult::Kind::kDone);
  clock_->Step(std::chrono::seconds(31));
  reconciler.Reconcile("team/p");
  EXPECT_TRUE(events_.empty()) << events_[0];
}

// A restarted controller remembers no departed winner; the Pod's own
// scheduler message still shows the hazard, and the Event names it.
TEST_F(PodEventReconcilerTest, FreshReconcilerNamesTheHazardTheSchedulerShows) {
  auto reconciler = Make();
  pods_.Upsert(PendingPod("p", 1, "0/1 nodes are available: 1 Insufficient example.com/gpu."));
  reconciler.Reconcile("team/p");
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_NE(events_[0].find("kube-scheduler has no DeviceClass for extended resource "
                            "example.com/gpu"),
            std::string::npos)
      << events_[0];
  EXPECT_EQ(events_[0].find("1/1 nodes"), std::string::npos) << events_[0];
}

// A restarted controller (a new reconciler) finds the Event the Pod already
// has among the Events the API server keeps, and sends it only if its text
// would differ. The Events are listed once, not per Pod.
TEST_F(PodEventReconcilerTest, ARestartDoesNotSendAPodTheEventItAlreadyHas) {
  pods_.Upsert(PendingPod("p", 2, "0/1 nodes are available"));
  pods_.Upsert(PendingPod("q", 2, "0/1 nodes are available"));
  {
    auto first = Make();
    first.Reconcile("team/p");
    first.Reconcile("team/q");
  }
  ASSERT_EQ(events_.size(), 2u);
  auto on_the_server = messages_;
  on_the_server["u-q"] = "an older text";
  int lists = 0;
  auto restarted = Make({}, [&](const std::string& reason) {
    ++lists;
    EXPECT_EQ(reason, "ExtendedResourceUnschedulable");
    return kube::Result<std::map<std::string, std::string>>(on_the_server);
  });
  restarted.Reconcile("team/p");
  restarted.Reconcile("team/q");
  restarted.Reconcile("team/p");
  EXPECT_EQ(lists, 1);
  ASSERT_EQ(events_.size(), 3u);  // only q, whose Event on the server says something else
  EXPECT_EQ(events_[2].substr(0, 2), "q|");
}

TEST_F(PodEventReconcilerTest, EventsThatCannotBeListedAreSentAgain) {
  pods_.Upsert(PendingPod("p", 2, "0/1 nodes are available"));
  auto restarted = Make({}, [](const std::string&) {
    return kube::Result<std::map<std::string, std::string>>(
        kube::Status(kube::StatusCode::kForbidden, "no list"));
  });
  restarted.Reconcile("team/p");
  EXPECT_EQ(events_.size(), 1u);
}

}  // namespace
}  // namespace dra::extended
