#include <gtest/gtest.h>

#include "controller/extended/MappingReconciler.h"
#include "src/base/FakeClock.h"
#include "src/cache/Store.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::extended {
namespace {

struct RecordedEvent {
  std::string kind, name, type, reason, message;
};

std::shared_ptr<const api::DeviceClass> Class(std::string name, int64_t created,
                                              std::string resource, std::string version = "1") {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = std::move(name);
  c->creation_timestamp = created;
  c->meta.resource_version = std::move(version);
  c->extended_resource_name = std::move(resource);
  return c;
}

class MappingReconcilerTest : public ::testing::Test {
 protected:
  MappingReconcilerTest()
      : reporter_(Record(), nullptr),
        reconciler_(
            {classes_, nodes_, &pods_}, inventory_, reporter_,
            [this](const std::string& name) {
              repaired_.push_back(name);
              return kube::Status::Ok();
            },
            Record(), clock_) {
    inventory_.ApplySlice(testing::Slice("s1", "node-1", {testing::Gpu("gpu-0", 40, "a100")}));
  }

  FindingReporter::EventFn Record() {
    return [this](const kube::ObjectReference& o, const std::string& type,
                  const std::string& reason, const std::string& message) {
      events_.push_back({o.kind, o.name, type, reason, message});
    };
  }

  void PutClass(std::shared_ptr<const api::DeviceClass> c) {
    inventory_.ApplyClass(c);
    classes_.Upsert(c);
  }
  void DeleteClass(const std::string& name) {
    if (auto old = classes_.Erase(name)) inventory_.RemoveClass(*old);
  }
  kube::ReconcileResult Reconcile() { return reconciler_.Reconcile(MappingReconciler::kKey); }
  int Count(const std::string& reason) const {
    int n = 0;
    for (const auto& e : events_) n += e.reason == reason;
    return n;
  }

  std::shared_ptr<kube::FakeClock> clock_ = std::make_shared<kube::FakeClock>();
  kube::Store<api::DeviceClass> classes_;
  kube::Store<api::NodeView> nodes_;
  kube::Store<api::PodView> pods_;
  inventory::Inventory inventory_;
  std::vector<RecordedEvent> events_;
  std::vector<std::string> repaired_;
  FindingReporter reporter_;
  MappingReconciler reconciler_;
};

TEST_F(MappingReconcilerTest, DuplicateWarnsOnceAndClears) {
  PutClass(Class("old-class", 100, "example.com/gpu"));
  PutClass(Class("new-class", 200, "example.com/gpu"));
  Reconcile();
  Reconcile();  // nothing changed: no second Event
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].name, "old-class");
  EXPECT_EQ(events_[0].type, "Warning");
  EXPECT_EQ(events_[0].reason, "DuplicateExtendedResourceName");
  EXPECT_NE(events_[0].message.find("new-class"), std::string::npos);

  // The loser stops naming it: resolved for the loser, and (v1.37.2 drops
  // the name whichever claimant leaves) the order hazard on the winner.
  PutClass(Class("old-class", 100, "example.com/other", "2"));
  Reconcile();
  EXPECT_EQ(Count("DuplicateExtendedResourceNameResolved"), 1);
  EXPECT_EQ(Count("ExtendedResourceMappingOrderHazard"), 1);
  ASSERT_EQ(reconciler_.findings().size(), 1u);
  EXPECT_EQ(reconciler_.findings()[0].object_name, "new-class");
}

TEST_F(MappingReconcilerTest, DeletedWinnerIsRepairedOnTheSurvivor) {
  PutClass(Class("old-class", 100, "example.com/gpu"));
  PutClass(Class("new-class", 200, "example.com/gpu"));
  Reconcile();
  DeleteClass("new-class");
  Reconcile();
  ASSERT_EQ(repaired_, std::vector<std::string>{"old-class"});
  bool hazard = false, repaired = false;
  for (const auto& e : events_) {
    hazard |= e.reason == "ExtendedResourceMappingOrderHazard" && e.name == "old-class";
    repaired |= e.reason == "ExtendedResourceMappingRepaired" && e.name == "old-class";
  }
  EXPECT_TRUE(hazard);
  EXPECT_TRUE(repaired);
  // The annotation updates the class; the next reconcile sees a new resourceVersion.
  PutClass(Class("old-class", 100, "example.com/gpu", "2"));
  Reconcile();
  EXPECT_TRUE(reconciler_.findings().empty());
  EXPECT_EQ(repaired_.size(), 1u);
}

TEST_F(MappingReconcilerTest, DevicePluginNodeReportedOnNodeAndClass) {
  PutClass(Class("gpu", 100, "example.com/gpu"));
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = "node-1";
  node->allocatable_extended.emplace_back("example.com/gpu", kube::Quantity::FromInt64(8));
  nodes_.Upsert(node);
  Reconcile();
  ASSERT_EQ(reconciler_.findings().size(), 2u);
  EXPECT_EQ(events_.size(), 2u);
  nodes_.Erase("node-1");
  Reconcile();
  EXPECT_TRUE(reconciler_.findings().empty());
}

// The class store can be ahead of the inventory (each informer handler runs
// on its own thread): a class the inventory has not evaluated is not judged.
TEST_F(MappingReconcilerTest, ClassNotYetEvaluatedIsNotReportedAsMatchingNothing) {
  classes_.Upsert(Class("gpu", 100, "example.com/gpu"));
  auto result = Reconcile();
  EXPECT_EQ(Count("DeviceClassMatchesNoDevice"), 0);
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  inventory_.ApplyClass(Class("gpu", 100, "example.com/gpu"));
  result = Reconcile();
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kDone);
  EXPECT_TRUE(events_.empty());
  EXPECT_TRUE(reconciler_.findings().empty());
}

// An open "no devices" finding is re-checked without an event of its own:
// a slice the inventory applies after the reconcile clears it.
TEST_F(MappingReconcilerTest, NoDevicesIsRecheckedUntilItClears) {
  auto slice = testing::Slice("s1", "node-1", {testing::Gpu("gpu-0", 40, "a100")});
  inventory_.RemoveSlice(*slice);
  PutClass(Class("gpu", 100, "example.com/gpu"));
  auto result = Reconcile();
  EXPECT_EQ(Count("DeviceClassMatchesNoDevice"), 1);
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  inventory_.ApplySlice(slice);
  Reconcile();
  EXPECT_EQ(Count("DeviceClassMatchesNoDeviceResolved"), 1);
  EXPECT_TRUE(reconciler_.findings().empty());
}

// A restarted controller (or the other replica) has no history; a Pod the
// scheduler refused with "Insufficient" on nodes without a device plugin
// shows the hazard, which is reported and repaired.
TEST_F(MappingReconcilerTest, FreshReconcilerSeesTheHazardOnPendingPods) {
  PutClass(Class("gpu", 100, "example.com/gpu"));
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = "node-1";
  nodes_.Upsert(node);
  auto pod = std::make_shared<api::PodView>();
  pod->meta.namespace_name = "team";
  pod->meta.name = "p";
  pod->scheduled =
      std::make_shared<const api::PodView::ScheduledCondition>(api::PodView::ScheduledCondition{
          "False", "Unschedulable", "0/1 nodes are available: 1 Insufficient example.com/gpu."});
  pods_.Upsert(pod);
  auto result = Reconcile();
  ASSERT_EQ(reconciler_.findings().size(), 1u);
  EXPECT_EQ(reconciler_.findings()[0].kind, MappingFinding::Kind::kOrderHazard);
  EXPECT_EQ(Count("ExtendedResourceMappingOrderHazard"), 1);
  EXPECT_EQ(repaired_, std::vector<std::string>{"gpu"});
  EXPECT_EQ(result.kind, kube::ReconcileResult::Kind::kRequeueAfter);
  // The touch has not reached the cache yet: no second touch.
  Reconcile();
  EXPECT_EQ(repaired_.size(), 1u);
  // It has: the scheduler re-read the class. The Pod keeps its old message
  // until the scheduler retries it, which is no evidence any more.
  PutClass(Class("gpu", 100, "example.com/gpu", "2"));
  Reconcile();
  EXPECT_TRUE(reconciler_.findings().empty());
  EXPECT_EQ(Count("ExtendedResourceMappingOrderHazardResolved"), 1);
  // A Pod refused after the touch is new evidence, repaired once the interval has passed.
  auto later = std::make_shared<api::PodView>(*pod);
  later->meta.name = "later";
  pods_.Upsert(later);
  Reconcile();
  EXPECT_EQ(reconciler_.findings().size(), 1u);
  EXPECT_EQ(repaired_.size(), 1u);
  clock_->Step(MappingReconciler::kRepairInterval);
  Reconcile();
  EXPECT_EQ(repaired_.size(), 2u);
}

// The class's overlap Event lists the nodes that overlap now: a second node
// is a new Warning with both, and one node leaving is not "Resolved" for the
// class while the other still overlaps.
TEST_F(MappingReconcilerTest, ClassOverlapEventFollowsTheNodes) {
  inventory_.ApplySlice(testing::Slice("s2", "node-2", {testing::Gpu("gpu-0", 40, "a100")}));
  PutClass(Class("gpu", 100, "example.com/gpu"));
  auto plugin_node = [](const std::string& name) {
    auto node = std::make_shared<api::NodeView>();
    node->meta.name = name;
    node->allocatable_extended.emplace_back("example.com/gpu", kube::Quantity::FromInt64(8));
    return node;
  };
  auto class_events = [this](const std::string& reason) {
    std::vector<std::string> out;
    for (const auto& e : events_) {
      if (e.kind == "DeviceClass" && e.reason == reason) out.push_back(e.message);
    }
    return out;
  };
  nodes_.Upsert(plugin_node("node-1"));
  Reconcile();
  nodes_.Upsert(plugin_node("node-2"));
  Reconcile();
  auto warnings = class_events("DevicePluginOverlap");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[1].find("node-1, node-2"), std::string::npos) << warnings[1];
  nodes_.Erase("node-1");
  Reconcile();
  EXPECT_TRUE(class_events("DevicePluginOverlapResolved").empty());
  warnings = class_events("DevicePluginOverlap");
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_NE(warnings[2].find(": node-2"), std::string::npos) << warnings[2];
  nodes_.Erase("node-2");
  Reconcile();
  EXPECT_EQ(class_events("DevicePluginOverlapResolved").size(), 1u);
}

}  // namespace
}  // namespace dra::extended
