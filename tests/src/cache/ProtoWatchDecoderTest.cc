#include <gtest/gtest.h>

#include <string>

#include "src/cache/ProtoWatchDecoder.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

std::string Object(const std::string& name, const std::string& rv) {
  return ProtoWriter()
      .Message(1, ProtoWriter().Bytes(1, name).Bytes(3, "ns").Bytes(6, rv))
      .Message(2, ProtoWriter().Bytes(10, "node-1"))
      .str();
}

// The frame without its 4-byte length: what the splitter hands on.
std::string EventOf(const std::string& type, const std::string& object) {
  return ProtoWriter::WatchFrame(type, object).substr(4);
}

TEST(ProtoWatchDecoderTest, DecodesTypeObjectAndResourceVersion) {
  std::string object = Object("p", "17");
  std::string frame = EventOf("MODIFIED", object);  // the event's views point into it
  auto event = ProtoWatchDecoder::Decode(frame);
  ASSERT_TRUE(event.ok()) << event.status().ToString();
  EXPECT_EQ(event->type, WatchEventType::kModified);
  EXPECT_EQ(event->resource_version, "17");
  ASSERT_TRUE(event->object.is_protobuf());
  EXPECT_EQ(event->object.protobuf(), object);
  EXPECT_FALSE(event->initial_events_end);
}

TEST(ProtoWatchDecoderTest, TheInitialEventsEndBookmarkIsRecognised) {
  auto bookmark = [](const std::string& value) {
    return ProtoWriter()
        .Message(1, ProtoWriter()
                        .Bytes(6, "99")
                        .StringEntry(12, "other", "true")
                        .StringEntry(12, "k8s.io/initial-events-end", value))
        .str();
  };
  std::string end_frame = EventOf("BOOKMARK", bookmark("true"));
  auto end = ProtoWatchDecoder::Decode(end_frame);
  ASSERT_TRUE(end.ok()) << end.status().ToString();
  EXPECT_EQ(end->type, WatchEventType::kBookmark);
  EXPECT_EQ(end->resource_version, "99");
  EXPECT_TRUE(end->initial_events_end);
  std::string plain_frame = EventOf("BOOKMARK", bookmark("false"));
  auto plain = ProtoWatchDecoder::Decode(plain_frame);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->initial_events_end);
}

TEST(ProtoWatchDecoderTest, AnErrorEventCarriesItsStatus) {
  std::string status =
      ProtoWriter().Bytes(3, "too old resource version").Bytes(4, "Expired").Varint(6, 410).str();
  std::string frame = EventOf("ERROR", status);
  auto event = ProtoWatchDecoder::Decode(frame);
  ASSERT_TRUE(event.ok()) << event.status().ToString();
  ASSERT_EQ(event->type, WatchEventType::kError);
  Status error = ProtoWatchDecoder::ErrorEventStatus(event->object.protobuf());
  EXPECT_EQ(error.code(), StatusCode::kGone);
  EXPECT_EQ(error.message(), "too old resource version");
}

TEST(ProtoWatchDecoderTest, BadEventsAreErrorsAndSalvageReadsWhatItCan) {
  EXPECT_FALSE(ProtoWatchDecoder::Decode(EventOf("RENAMED", Object("p", "1"))).ok());
  EXPECT_FALSE(ProtoWatchDecoder::Decode(ProtoWriter().Bytes(1, "ADDED").str()).ok());
  EXPECT_FALSE(ProtoWatchDecoder::Decode("\x0a\x09").ok());
  // An object whose spec is cut short: the event decodes only as far as the
  // metadata, which Salvage reads.
  std::string broken = ProtoWriter()
                           .Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ns").Bytes(6, "8"))
                           .Raw(std::string("\x12\x40short", 7))
                           .str();
  std::string added = EventOf("ADDED", broken);
  auto decoded = ProtoWatchDecoder::Decode(added);
  ASSERT_TRUE(decoded.ok()) << "the event itself is whole; the projection refuses the object";
  auto salvaged = ProtoWatchDecoder::Salvage(EventOf("DELETED", broken));
  ASSERT_TRUE(salvaged.ok()) << salvaged.status().ToString();
  EXPECT_EQ(salvaged->type, WatchEventType::kDeleted);
  EXPECT_EQ(salvaged->Key(), "ns/p");
  EXPECT_EQ(salvaged->resource_version, "8");
}

}  // namespace
}  // namespace kube
