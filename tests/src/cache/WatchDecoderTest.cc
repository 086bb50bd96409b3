#include <gtest/gtest.h>

#include <string>

#include "src/cache/WatchDecoder.h"

namespace kube {
namespace {

std::string Nested(int depth) {
  std::string out;
  for (int i = 0; i < depth; ++i) out += R"({"a":)";
  out += "1";
  out.append(static_cast<size_t>(depth), '}');
  return out;
}

std::string Event(int depth) {
  return R"({"type":"MODIFIED","object":{"metadata":{"name":"c","namespace":"ns",)"
         R"("resourceVersion":"9"},"spec":)" +
         Nested(depth) + "}}";
}

// Found by the ASan+UBSan run of ReflectorFaultTest: salvaging a line without
// a "type" member parsed an empty view whose data() is null, which simdjson
// passed to memcpy. Under UBSan this test fails without the guard.
TEST(WatchDecoderTest, EmptyInputIsAParseErrorAndNothingElse) {
  WatchDecoder decoder;
  auto doc = decoder.ParseDocument(std::string_view());
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), StatusCode::kParseError);
  EXPECT_FALSE(decoder.SalvageEvent(R"({"object":{}})").ok());
}

TEST(WatchDecoderTest, DecodesObjectsAsDeepAsKubeApiserverAccepts) {
  WatchDecoder decoder;
  for (int depth : {1100, 9000, 10000}) {
    auto event = decoder.Decode(Event(depth));
    ASSERT_TRUE(event.ok()) << depth << ": " << event.status().ToString();
    EXPECT_EQ(event->resource_version, "9");
  }
}

TEST(WatchDecoderTest, RefusesDeeperDocumentsButSalvagesTheirMetadata) {
  WatchDecoder decoder;
  std::string line = Event(12000);
  EXPECT_FALSE(decoder.Decode(line).ok());
  auto salvaged = decoder.SalvageEvent(line);
  ASSERT_TRUE(salvaged.ok()) << salvaged.status().ToString();
  EXPECT_EQ(salvaged->type, WatchEventType::kModified);
  EXPECT_EQ(salvaged->Key(), "ns/c");
  EXPECT_EQ(salvaged->resource_version, "9");
  EXPECT_TRUE(decoder.Decode(Event(3)).ok()) << "the parser is usable afterwards";
}

TEST(WatchDecoderTest, GivesBackTheMemoryOfALargeDocument) {
  WatchDecoder decoder;
  std::string big = R"({"type":"ADDED","object":{"blob":")" + std::string(8 << 20, 'x') + "\"}}";
  ASSERT_TRUE(decoder.Decode(big).ok());
  EXPECT_GE(decoder.capacity(), big.size());
  decoder.TrimCapacity();
  EXPECT_EQ(decoder.capacity(), 0u);
  EXPECT_TRUE(decoder.Decode(Event(10000)).ok()) << "the depth limit survives the trim";
}

TEST(WatchDecoderTest, AllocatesNothingBeforeItsFirstDocument) {
  WatchDecoder decoder;
  EXPECT_EQ(decoder.capacity(), 0u);
  ASSERT_TRUE(decoder.Decode(Event(3)).ok());
  EXPECT_EQ(decoder.capacity(), WatchDecoder::kInitialCapacity);
  decoder.TrimCapacity();
  EXPECT_EQ(decoder.capacity(), WatchDecoder::kInitialCapacity) << "a small parser is kept";
}

TEST(WatchDecoderTest, ADeepFirstDocumentDecodes) {
  WatchDecoder decoder;
  EXPECT_TRUE(decoder.Decode(Event(10000)).ok()) << "the depth limit is set by the first use";
}

}  // namespace
}  // namespace kube
