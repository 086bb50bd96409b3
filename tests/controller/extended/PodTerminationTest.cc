#include <gtest/gtest.h>

#include "controller/extended/PodTermination.h"

namespace dra::extended {
namespace {

PodTermination Read(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  return PodTermination::FromJson(root);
}

TEST(PodTerminationTest, DeviceTaintEvictionNamesReasonMessageAndDeletion) {
  auto t = Read(R"({"metadata":{"name":"p","deletionTimestamp":"2026-12-04T16:00:00Z"},
    "status":{"phase":"Pending","conditions":[
      {"type":"PodScheduled","status":"True"},
      {"type":"DisruptionTarget","status":"True","reason":"DeletionByDeviceTaintManager",
       "message":"Device Taint manager: deleting due to NoExecute taint"}]}})");
  EXPECT_TRUE(t.terminating());
  EXPECT_EQ(t.Describe(),
            "evicted: DeletionByDeviceTaintManager: Device Taint manager: deleting due to "
            "NoExecute taint; deleted at 2026-12-04T16:00:00Z");
}

TEST(PodTerminationTest, DeletionAloneAndEvictionAlone) {
  EXPECT_EQ(Read(R"({"metadata":{"deletionTimestamp":"2026-12-04T16:00:00Z"}})").Describe(),
            "deleted at 2026-12-04T16:00:00Z");
  EXPECT_EQ(Read(R"({"status":{"conditions":[{"type":"DisruptionTarget","status":"True",
                 "reason":"PreemptionByScheduler"}]}})")
                .Describe(),
            "evicted: PreemptionByScheduler");
}

TEST(PodTerminationTest, LivePodAndMalformedInputAreNotTerminating) {
  EXPECT_FALSE(Read(R"({"metadata":{"name":"p"},"status":{"conditions":[
      {"type":"DisruptionTarget","status":"False","reason":"x"}]}})")
                   .terminating());
  EXPECT_FALSE(Read(R"({"metadata":"x","status":{"conditions":{"a":1}}})").terminating());
  EXPECT_FALSE(Read("[]").terminating());
  EXPECT_EQ(Read("{}").Describe(), "");
}

}  // namespace
}  // namespace dra::extended
