#include <gtest/gtest.h>

#include "controller/extended/SentPodEvents.h"

namespace dra::extended {
namespace {

using nlohmann::json;

json Event(const std::string& uid, const std::string& message, const std::string& last,
           const std::string& component = "dra-controller") {
  return {{"involvedObject", {{"kind", "Pod"}, {"uid", uid}}},
          {"source", {{"component", component}}},
          {"lastTimestamp", last},
          {"message", message}};
}

TEST(SentPodEventsTest, KeepsTheNewestMessageOfOurOwnEventsPerPod) {
  SentPodEvents::Messages messages;
  std::map<std::string, std::string> newest;
  SentPodEvents::Add(
      {{"items",
        {Event("u1", "new", "2026-12-06T01:00:00Z"), Event("u1", "old", "2026-12-06T00:00:00Z"),
         Event("u2", "theirs", "2026-12-06T01:00:00Z", "someone-else"), json("not an event"),
         Event("", "no uid", "2026-12-06T01:00:00Z")}}},
      "dra-controller", messages, newest);
  // A later page with an older Event of u1 does not replace the newest.
  SentPodEvents::Add({{"items", {Event("u1", "older", "2026-12-05T00:00:00Z")}}}, "dra-controller",
                     messages, newest);
  EXPECT_EQ(messages, (SentPodEvents::Messages{{"u1", "new"}}));
  SentPodEvents::Add(json::array(), "dra-controller", messages, newest);  // not a list
  EXPECT_EQ(messages.size(), 1u);
}

}  // namespace
}  // namespace dra::extended
