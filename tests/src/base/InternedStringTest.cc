#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "src/base/InternedString.h"

namespace kube {
namespace {

TEST(InternedStringTest, EqualTextsShareOneEntry) {
  size_t before = InternedString::PoolSize();
  std::string text = "resource.kubernetes.io/pcieRoot-interned-test";
  InternedString a(text);
  InternedString b(std::string_view(text.data(), text.size()));
  EXPECT_EQ(InternedString::PoolSize(), before + 1);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.view().data(), b.view().data());
  EXPECT_EQ(a, text);
  EXPECT_EQ(a, "resource.kubernetes.io/pcieRoot-interned-test");
  EXPECT_EQ(a.str(), text);
  EXPECT_EQ(a.size(), text.size());
}

TEST(InternedStringTest, DifferentTextsDiffer) {
  InternedString a("model-a-interned-test");
  InternedString b("model-b-interned-test");
  EXPECT_NE(a, b);
  EXPECT_LT(a, b);
  EXPECT_NE(a, "model-b-interned-test");
  EXPECT_NE(a, std::string_view("model-a"));
}

TEST(InternedStringTest, TheLastHolderFreesTheEntry) {
  size_t before = InternedString::PoolSize();
  {
    InternedString a("freed-with-its-last-holder");
    InternedString copy = a;
    InternedString moved = std::move(copy);
    EXPECT_EQ(InternedString::PoolSize(), before + 1);
    a = InternedString();
    EXPECT_EQ(InternedString::PoolSize(), before + 1);  // `moved` still holds it
    EXPECT_EQ(moved, "freed-with-its-last-holder");
  }
  EXPECT_EQ(InternedString::PoolSize(), before);
  InternedString again("freed-with-its-last-holder");
  EXPECT_EQ(again.view(), "freed-with-its-last-holder");
}

TEST(InternedStringTest, EmptyIsNotPooled) {
  size_t before = InternedString::PoolSize();
  InternedString empty("");
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty, InternedString());
  EXPECT_EQ(empty, "");
  EXPECT_EQ(InternedString::PoolSize(), before);
}

TEST(InternedStringTest, AssignmentKeepsCountsRight) {
  size_t before = InternedString::PoolSize();
  InternedString a("assign-a");
  InternedString b("assign-b");
  a = b;
  EXPECT_EQ(InternedString::PoolSize(), before + 1);  // "assign-a" had one holder
  InternedString& same_a = a;
  InternedString& same_b = b;
  a = same_a;
  b = std::move(same_b);
  EXPECT_EQ(a, "assign-b");
  EXPECT_EQ(b, "assign-b");
  a = std::move(b);
  EXPECT_EQ(a, "assign-b");
}

TEST(InternedStringTest, EmbeddedNulAndLongTextsRoundTrip) {
  std::string text("a\0b", 3);
  InternedString nul(text);
  EXPECT_EQ(nul.size(), 3u);
  EXPECT_EQ(nul.view(), std::string_view(text));
  std::string long_text(100000, 'x');
  InternedString big(long_text);
  EXPECT_EQ(big.view(), long_text);
}

TEST(InternedStringTest, ConcatenatesLikeAStdString) {
  InternedString driver("gpu.example.com");
  InternedString pool("node-1");
  std::string device = "gpu-0";
  EXPECT_EQ(driver + "/" + pool + "/" + device, "gpu.example.com/node-1/gpu-0");
  EXPECT_EQ("claim " + pool, "claim node-1");
  EXPECT_EQ(device + "@" + pool, "gpu-0@node-1");
  EXPECT_EQ(driver + pool, "gpu.example.comnode-1");
  EXPECT_EQ(InternedString() + "", "");
}

// Threads take and drop the same few texts at once; a release that raced a
// lookup would free an entry still held (ASan/TSan see it) or leave one behind.
TEST(InternedStringTest, ConcurrentTakeAndReleaseLeavesThePoolAsItWas) {
  size_t before = InternedString::PoolSize();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 20000; ++i) {
        InternedString a("contended-" + std::to_string(i % 3));
        InternedString b = a;
        InternedString c("contended-" + std::to_string((i + t) % 3));
        if (b.view().substr(0, 10) != "contended-" || c.empty()) std::abort();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(InternedString::PoolSize(), before);
}

}  // namespace
}  // namespace kube
