#include <gtest/gtest.h>

#include "src/proto/ProtoFields.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

TEST(ProtoFieldsTest, FindKeepsTheLastOccurrenceAndSkipsOtherWireTypes) {
  ProtoWriter w;
  w.Bytes(1, "first").Varint(1, 9).Bytes(2, "other").Bytes(1, "last");
  auto found = ProtoFields::Find(w.str(), 1);
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ(**found, "last");
  auto absent = ProtoFields::Find(w.str(), 3);
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());
  EXPECT_FALSE(ProtoFields::Find(std::string("\x0a\x09", 2), 1).ok());
}

TEST(ProtoFieldsTest, MapEntriesReadKeyAndValueInEitherOrder) {
  auto entry = ProtoFields::StringEntry(ProtoWriter().Bytes(2, "v").Bytes(1, "k").str());
  ASSERT_TRUE(entry.ok());
  EXPECT_EQ(entry->first, "k");
  EXPECT_EQ(entry->second, "v");
  auto empty = ProtoFields::Entry("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->first.empty());
  EXPECT_FALSE(ProtoFields::Entry(std::string("\x0a\x05k", 3)).ok());
}

TEST(ProtoFieldsTest, QuantityEntriesReadTheQuantitysText) {
  std::string bytes =  // the entry's views point into it
      ProtoWriter().Bytes(1, "example.com/gpu").Message(2, ProtoWriter().Bytes(1, "2")).str();
  auto entry = ProtoFields::QuantityEntry(bytes);
  ASSERT_TRUE(entry.ok());
  EXPECT_EQ(entry->first, "example.com/gpu");
  EXPECT_EQ(entry->second, std::optional<std::string_view>("2"));
  auto empty = ProtoFields::QuantityEntry(ProtoWriter().Bytes(1, "cpu").str());
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->second.has_value());
  EXPECT_FALSE(
      ProtoFields::QuantityEntry(ProtoWriter().Bytes(2, std::string("\x0a\x09", 2)).str()).ok());
}

}  // namespace
}  // namespace kube
