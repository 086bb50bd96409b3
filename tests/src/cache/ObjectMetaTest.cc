#include <gtest/gtest.h>

#include <string>

#include "src/cache/ObjectMeta.h"
#include "src/cache/WatchDecoder.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

constexpr const char* kObject = R"({"metadata":{"name":"p","namespace":"ns","uid":"u-1",
    "resourceVersion":"42","generation":3,"creationTimestamp":"1970-01-01T00:01:00Z",
    "labels":{"app":"trainer","tier":"gpu","odd":7}}})";

Result<ObjectMeta> Read(const std::string& json, ObjectMeta::Labels labels) {
  static WatchDecoder decoder;
  auto doc = decoder.ParseDocument(json);
  if (!doc.ok()) return doc.status();
  return ObjectMeta::FromObject(*doc, labels);
}

TEST(ObjectMetaTest, KeepsStringLabelsAndTheIdentity) {
  auto meta = Read(kObject, ObjectMeta::Labels::kKeep);
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_EQ(meta->Key(), "ns/p");
  EXPECT_EQ(meta->uid, "u-1");
  EXPECT_EQ(meta->resource_version, "42");
  ASSERT_EQ(meta->labels.size(), 2u);  // a label whose value is not a string is dropped
  EXPECT_EQ(meta->labels[0], (std::pair<std::string, std::string>{"app", "trainer"}));
  EXPECT_EQ(meta->labels[1], (std::pair<std::string, std::string>{"tier", "gpu"}));
  EXPECT_EQ(meta->labels.capacity(), meta->labels.size());
}

TEST(ObjectMetaTest, SkipsLabelsWhenAskedAndKeepsTheRest) {
  auto meta = Read(kObject, ObjectMeta::Labels::kSkip);
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_TRUE(meta->labels.empty());
  EXPECT_EQ(meta->Key(), "ns/p");
  EXPECT_EQ(meta->resource_version, "42");
}

TEST(ObjectMetaTest, NamelessObjectIsAnErrorEitherWay) {
  for (auto labels : {ObjectMeta::Labels::kKeep, ObjectMeta::Labels::kSkip}) {
    EXPECT_FALSE(Read(R"({"metadata":{"labels":{"a":"b"}}})", labels).ok());
    EXPECT_FALSE(Read(R"({"spec":{}})", labels).ok());
  }
}

}  // namespace
}  // namespace kube

namespace kube {
namespace {

using testing::ProtoWriter;

std::string ProtoObject(bool deleting) {
  ProtoWriter meta;
  meta.Bytes(1, "p")
      .Bytes(3, "ns")
      .Bytes(5, "u-1")
      .Bytes(6, "42")
      .Varint(7, 3)
      .Message(8, ProtoWriter().Varint(1, 60).Varint(2, 5))
      .StringEntry(11, "app", "trainer")
      .StringEntry(11, "tier", "gpu")
      .StringEntry(12, "note", "not kept");
  if (deleting) meta.Message(9, ProtoWriter().Varint(1, 90));
  return ProtoWriter().Message(1, meta).Message(2, ProtoWriter().Bytes(10, "n")).str();
}

// The protobuf reading gives the same ObjectMeta as the JSON one.
TEST(ObjectMetaTest, ProtobufReadsTheSameFieldsAsJson) {
  auto meta = ObjectMeta::FromProto(ProtoObject(false));
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  auto json = Read(kObject, ObjectMeta::Labels::kKeep);
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(meta->Key(), json->Key());
  EXPECT_EQ(meta->uid, json->uid);
  EXPECT_EQ(meta->resource_version, json->resource_version);
  EXPECT_EQ(meta->labels, json->labels);
  EXPECT_FALSE(meta->deleting);
  EXPECT_TRUE(ObjectMeta::FromProto(ProtoObject(true))->deleting);
  auto skipped = ObjectMeta::FromProto(ProtoObject(false), ObjectMeta::Labels::kSkip);
  ASSERT_TRUE(skipped.ok());
  EXPECT_TRUE(skipped->labels.empty());
}

TEST(ObjectMetaTest, ProtobufWithoutNameOrMetadataOrWholeBytesIsAnError) {
  EXPECT_FALSE(
      ObjectMeta::FromProto(ProtoWriter().Message(1, ProtoWriter().Bytes(3, "ns")).str()).ok());
  EXPECT_FALSE(ObjectMeta::FromProto(ProtoWriter().Bytes(2, "spec").str()).ok());
  std::string whole = ProtoObject(false);
  EXPECT_FALSE(ObjectMeta::FromProto(std::string_view(whole).substr(0, 20)).ok());
}

}  // namespace
}  // namespace kube
