#include <gtest/gtest.h>

#include "controller/extended/OrderHazardTracker.h"

namespace dra::extended {
namespace {

using ClassPtr = std::shared_ptr<const api::DeviceClass>;

ClassPtr Class(std::string name, int64_t created, std::optional<std::string> resource,
               std::string version = "1") {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = std::move(name);
  c->creation_timestamp = created;
  c->meta.resource_version = std::move(version);
  c->extended_resource_name = std::move(resource);
  return c;
}

std::vector<MappingFinding> Observe(OrderHazardTracker& tracker,
                                    const std::vector<ClassPtr>& classes) {
  return tracker.Observe(classes, ExtendedResourceMapping::Build(classes));
}

TEST(OrderHazardTrackerTest, NoHazardWithoutContest) {
  OrderHazardTracker tracker;
  EXPECT_TRUE(Observe(tracker, {Class("gpu", 1, "example.com/gpu")}).empty());
  EXPECT_TRUE(Observe(tracker, {}).empty());
}

TEST(OrderHazardTrackerTest, DeletedWinnerOpensHazardOnSurvivorUntilItIsUpdated) {
  OrderHazardTracker tracker;
  auto old_class = Class("old-class", 100, "example.com/gpu", "7");
  auto new_class = Class("new-class", 200, "example.com/gpu");
  EXPECT_TRUE(Observe(tracker, {old_class, new_class}).empty());

  auto open = Observe(tracker, {old_class});  // the winner is deleted
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].kind, MappingFinding::Kind::kOrderHazard);
  EXPECT_EQ(open[0].object_name, "old-class");
  EXPECT_EQ(open[0].other, "new-class");
  EXPECT_EQ(open[0].resource, "example.com/gpu");
  EXPECT_NE(open[0].message.find("until class old-class is updated"), std::string::npos);

  EXPECT_EQ(Observe(tracker, {old_class}).size(), 1u);  // still open: nothing changed
  // Any update of the survivor (e.g. a label) makes the scheduler re-read it.
  EXPECT_TRUE(Observe(tracker, {Class("old-class", 100, "example.com/gpu", "8")}).empty());
}

TEST(OrderHazardTrackerTest, RenamedWinnerOpensHazard) {
  OrderHazardTracker tracker;
  auto survivor = Class("a", 100, "example.com/gpu");
  Observe(tracker, {survivor, Class("b", 200, "example.com/gpu")});
  auto open = Observe(tracker, {survivor, Class("b", 200, "example.com/other", "2")});
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].object_name, "a");
}

// v1.37.2's removeResourceName2class deletes the name's entry whichever
// class it points to, and an update that changes a class's name deletes the
// old name's entry: a loser leaving drops the winner's mapping too.
TEST(OrderHazardTrackerTest, LoserLeavingDropsTheWinnersMapping) {
  OrderHazardTracker tracker;
  auto winner = Class("new-class", 200, "example.com/gpu");
  Observe(tracker, {Class("old-class", 100, "example.com/gpu"), winner});
  auto open = Observe(tracker, {winner});
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].object_name, "new-class");
  EXPECT_EQ(open[0].other, "old-class");
  EXPECT_TRUE(Observe(tracker, {Class("new-class", 200, "example.com/gpu", "2")}).empty());

  Observe(tracker, {Class("old-class", 100, "example.com/gpu"), winner});
  open = Observe(tracker, {Class("old-class", 100, "example.com/other", "2"), winner});
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].object_name, "new-class");
}

TEST(OrderHazardTrackerTest, SurvivorDeletedClosesHazard) {
  OrderHazardTracker tracker;
  auto old_class = Class("old-class", 100, "example.com/gpu");
  Observe(tracker, {old_class, Class("new-class", 200, "example.com/gpu")});
  ASSERT_EQ(Observe(tracker, {old_class}).size(), 1u);
  EXPECT_TRUE(Observe(tracker, {}).empty());
}

TEST(OrderHazardTrackerTest, TieWinnerIsTheSmallerName) {
  OrderHazardTracker tracker;
  auto b = Class("b", 100, "example.com/gpu");
  Observe(tracker, {Class("a", 100, "example.com/gpu"), b});
  auto open = Observe(tracker, {b});
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].other, "a");
}

}  // namespace
}  // namespace dra::extended
