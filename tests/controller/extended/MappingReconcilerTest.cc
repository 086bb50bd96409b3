#include <gtest/gtest.h>

#include "controller/extended/MappingReconciler.h"
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
            classes_, nodes_, inventory_, reporter_,
            [this](const std::string& name) {
              repaired_.push_back(name);
              return kube::Status::Ok();
            },
            Record()) {
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
  void Reconcile() { reconciler_.Reconcile(MappingReconciler::kKey); }

  kube::Store<api::DeviceClass> classes_;
  kube::Store<api::NodeView> nodes_;
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

  PutClass(Class("old-class", 100, "example.com/other", "2"));
  Reconcile();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1].type, "Normal");
  EXPECT_EQ(events_[1].reason, "DuplicateExtendedResourceNameResolved");
  EXPECT_TRUE(reconciler_.findings().empty());
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

}  // namespace
}  // namespace dra::extended
