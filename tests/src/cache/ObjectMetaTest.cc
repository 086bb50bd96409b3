#include <gtest/gtest.h>

#include <string>

#include "src/cache/ObjectMeta.h"
#include "src/cache/WatchDecoder.h"

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
  EXPECT_EQ(meta->generation, 3);
  EXPECT_EQ(meta->creation_timestamp, 60);
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
