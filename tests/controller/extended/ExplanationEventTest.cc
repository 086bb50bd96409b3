#include <gtest/gtest.h>

#include "controller/extended/ExplanationEvent.h"

namespace dra::extended {
namespace {

TEST(ExplanationEventTest, MessageJoinsWithoutDoubleStopsAndIsCapped) {
  PodExplanation e;
  e.notes = {"example.com/gpu is named by several DeviceClasses; new wins, old lose(s)."};
  e.summary = "0/3 nodes: 3 have no device of class gpu.example.com";
  e.scheduler_message = "0/3 nodes are available: 3 Insufficient example.com/gpu.";
  EXPECT_EQ(ExplanationEvent::Message(e),
            "0/3 nodes: 3 have no device of class gpu.example.com. example.com/gpu is named by "
            "several DeviceClasses; new wins, old lose(s). Scheduler: 0/3 nodes are available: 3 "
            "Insufficient example.com/gpu.");
  e.scheduler_message = std::string(2000, 'x');
  EXPECT_EQ(ExplanationEvent::Message(e).size(), 1024u);
}

TEST(ExplanationEventTest, NoSummarySaysNoNodeWasJudged) {
  EXPECT_EQ(ExplanationEvent::Message(PodExplanation{}), "no node judged");
}

}  // namespace
}  // namespace dra::extended
