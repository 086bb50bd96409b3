#include <gtest/gtest.h>

#include "controller/alerts/ResolutionMemory.h"

namespace dra::alerts {
namespace {

using Pairs = std::vector<std::pair<std::string, int64_t>>;

TEST(ResolutionMemoryTest, KeepsTheNewestResolutionOfEachAlertPerGpu) {
  ResolutionMemory memory;
  memory.Add({"alert-gpu-1", "f", 200});
  memory.Add({"alert-gpu-1", "f", 100});
  memory.Add({"alert-gpu-1", "g", 300});
  memory.Add({"alert-gpu-2", "f", 50});
  EXPECT_EQ(memory.For("alert-gpu-1"), (Pairs{{"f", 200}, {"g", 300}}));
  EXPECT_EQ(memory.For("alert-gpu-2"), (Pairs{{"f", 50}}));
  EXPECT_TRUE(memory.For("alert-gpu-3").empty());
  EXPECT_EQ(memory.size(), 3u);
}

TEST(ResolutionMemoryTest, ReadsBackWhatItWrites) {
  ResolutionMemory memory;
  memory.Add({"alert-gpu-1", "f", 1796455870000});
  memory.Add({"alert-gpu-2", "alertname:GPUXidCritical", 1796455871000});
  auto read = ResolutionMemory::FromText(memory.ToText());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->ToText(), memory.ToText());
  EXPECT_EQ(read->For("alert-gpu-2"), (Pairs{{"alertname:GPUXidCritical", 1796455871000}}));
  ASSERT_TRUE(ResolutionMemory::FromText("").ok());
  EXPECT_EQ(ResolutionMemory::FromText("")->size(), 0u);
}

TEST(ResolutionMemoryTest, ForgetsADayBeforeTheNewestAndTheOldestPastTheCap) {
  ResolutionMemory memory;
  const int64_t now = ResolutionMemory::kKeepMs * 10;
  memory.Add({"newest", "f", now});
  memory.Add({"old", "f", now - ResolutionMemory::kKeepMs - 1});
  memory.Add({"recent", "f", now - ResolutionMemory::kKeepMs});
  memory.Prune();
  EXPECT_TRUE(memory.For("old").empty());
  EXPECT_EQ(memory.For("recent").size(), 1u);
  for (size_t i = 0; i < ResolutionMemory::kMaxEntries + 10; ++i) {
    memory.Add({"gpu-" + std::to_string(i), "f", now - 1000 + static_cast<int64_t>(i)});
  }
  memory.Prune();
  EXPECT_EQ(memory.size(), ResolutionMemory::kMaxEntries);
  EXPECT_TRUE(memory.For("recent").empty()) << "the oldest goes first";
  EXPECT_TRUE(memory.For("gpu-10").empty());
  EXPECT_EQ(memory.For("gpu-11").size(), 1u);
  EXPECT_EQ(memory.For("newest").size(), 1u);
}

TEST(ResolutionMemoryTest, TextThatIsNotAMemoryIsAnErrorNotACrash) {
  for (const char* text :
       {"[]", "{", "{\"h\": 1}", "{\"h\": {\"f\": \"x\"}}", "{\"h\": {\"f\": 1.5}}",
        "{\"h\": {\"f\": {\"deeper\": {\"still\": 1}}}}", "null"}) {
    auto read = ResolutionMemory::FromText(text);
    EXPECT_FALSE(read.ok()) << text;
  }
}

}  // namespace
}  // namespace dra::alerts
