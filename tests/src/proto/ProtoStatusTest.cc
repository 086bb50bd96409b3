#include <gtest/gtest.h>

#include "src/proto/ProtoStatus.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

TEST(ProtoStatusTest, ReadsCodeReasonMessageAndCauses) {
  ProtoWriter details;
  details.Bytes(1, "gpu-0")
      .Message(4, ProtoWriter().Bytes(1, "FieldValueInvalid").Bytes(2, "bad").Bytes(3, "spec.x"))
      .Message(4, ProtoWriter().Bytes(2, "missing").Bytes(3, "spec.y"));
  ProtoWriter status;
  status.Message(1, ProtoWriter().Bytes(2, "7"))
      .Bytes(2, "Failure")
      .Bytes(3, "too old resource version: 1 (5)")
      .Bytes(4, "Expired")
      .Message(5, details)
      .Varint(6, 410);
  auto decoded = ProtoStatus::Decode(status.str());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, 410);
  EXPECT_EQ(decoded->reason, "Expired");
  EXPECT_EQ(decoded->message, "too old resource version: 1 (5)");
  ASSERT_EQ(decoded->causes.size(), 2u);
  EXPECT_EQ(decoded->causes[0].field, "spec.x");
  EXPECT_EQ(decoded->causes[0].message, "bad");
  EXPECT_EQ(decoded->causes[1].field, "spec.y");
}

TEST(ProtoStatusTest, MalformedDetailsAreAnError) {
  ProtoWriter status;
  status.Bytes(5, std::string{'\x22', '\x05', 'a', 'b'});  // a cause longer than its message
  EXPECT_FALSE(ProtoStatus::Decode(status.str()).ok());
}

}  // namespace
}  // namespace kube
