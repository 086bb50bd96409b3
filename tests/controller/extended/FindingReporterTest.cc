#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include "controller/extended/FindingReporter.h"

namespace dra::extended {
namespace {

MappingFinding Duplicate(const std::string& loser) {
  return {
      MappingFinding::Kind::kDuplicate, "DeviceClass", loser, "example.com/gpu", "winner", "lost"};
}

class FindingReporterTest : public ::testing::Test {
 protected:
  FindingReporterTest()
      : registry_(std::make_shared<prometheus::Registry>()),
        reporter_(
            [this](const kube::ObjectReference& o, const std::string& type,
                   const std::string& reason, const std::string& message) {
              events_.push_back(o.kind + "/" + o.name + "|" + type + "|" + reason);
              messages_.push_back(message);
            },
            registry_) {}

  std::string Metrics() { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

  std::shared_ptr<prometheus::Registry> registry_;
  std::vector<std::string> events_;
  std::vector<std::string> messages_;
  FindingReporter reporter_;
};

TEST_F(FindingReporterTest, GaugeStartsAtZeroForEveryKind) {
  std::string metrics = Metrics();
  EXPECT_NE(
      metrics.find(
          R"(dra_controller_extended_resource_findings{kind="DuplicateExtendedResourceName"} 0)"),
      std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find(R"(kind="DevicePluginOverlap"} 0)"), std::string::npos);
}

TEST_F(FindingReporterTest, NewFindingsWarnOnceAndClearedOnesResolve) {
  reporter_.Report({Duplicate("a"), Duplicate("b")});
  reporter_.Report({Duplicate("a"), Duplicate("b")});
  EXPECT_EQ(events_.size(), 2u);
  EXPECT_NE(Metrics().find(R"(kind="DuplicateExtendedResourceName"} 2)"), std::string::npos);
  reporter_.Report({Duplicate("b")});
  ASSERT_EQ(events_.size(), 3u);
  EXPECT_EQ(events_[2], "DeviceClass/a|Normal|DuplicateExtendedResourceNameResolved");
  EXPECT_NE(Metrics().find(R"(kind="DuplicateExtendedResourceName"} 1)"), std::string::npos);
}

// An Event says what is true now: the same problem with a new text (a
// second overlapping node, a new winner) is warned again with that text.
TEST_F(FindingReporterTest, ChangedMessageIsWarnedAgain) {
  MappingFinding overlap{
      MappingFinding::Kind::kDevicePluginOverlap, "DeviceClass", "gpu", "r", "", "nodes: a"};
  reporter_.Report({overlap});
  overlap.message = "nodes: a, b";
  reporter_.Report({overlap});
  reporter_.Report({overlap});
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1], "DeviceClass/gpu|Warning|DevicePluginOverlap");
  EXPECT_EQ(messages_[1], "nodes: a, b");
}

// A losing class whose winner changes still loses: no "Resolved".
TEST_F(FindingReporterTest, NewWinnerIsNotAResolution) {
  reporter_.Report({Duplicate("a")});
  MappingFinding other_winner = Duplicate("a");
  other_winner.other = "winner-2";
  other_winner.message = "lost to winner-2";
  reporter_.Report({other_winner});
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1], "DeviceClass/a|Warning|DuplicateExtendedResourceName");
  EXPECT_EQ(messages_[1], "lost to winner-2");
}

// "Resolved" does not repeat the problem's text as if it were still true.
TEST_F(FindingReporterTest, ResolvedEventDescribesTheResolution) {
  MappingFinding overlap{
      MappingFinding::Kind::kDevicePluginOverlap, "Node", "n1", "example.com/gpu", "gpu", "old"};
  reporter_.Report({overlap});
  reporter_.Report({});
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1], "Node/n1|Normal|DevicePluginOverlapResolved");
  EXPECT_EQ(messages_[1].find("old"), std::string::npos) << messages_[1];
  EXPECT_NE(messages_[1].find("example.com/gpu"), std::string::npos) << messages_[1];
}

TEST_F(FindingReporterTest, NodeFindingsReferToCoreV1) {
  MappingFinding f{MappingFinding::Kind::kDevicePluginOverlap, "Node", "n1", "r", "c", "m"};
  auto ref = FindingReporter::ReferenceTo(f);
  EXPECT_EQ(ref.api_version, "v1");
  EXPECT_EQ(ref.kind, "Node");
  EXPECT_EQ(FindingReporter::ReferenceTo(Duplicate("a")).api_version, "resource.k8s.io/v1");
}

}  // namespace
}  // namespace dra::extended
