#include <gtest/gtest.h>

#include <string>

#include "src/proto/ProtoEnvelope.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

TEST(ProtoEnvelopeTest, UnwrapsTheRawMessage) {
  std::string body = ProtoWriter::Envelope("\x0a\x01x");
  EXPECT_TRUE(ProtoEnvelope::IsProtobuf(body));
  auto raw = ProtoEnvelope::Unwrap(body);
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  EXPECT_EQ(*raw, "\x0a\x01x");
}

TEST(ProtoEnvelopeTest, RefusesJsonAMissingMagicAnEncodingAndTruncation) {
  EXPECT_FALSE(ProtoEnvelope::IsProtobuf(R"({"kind":"PodList"})"));
  EXPECT_FALSE(ProtoEnvelope::IsProtobuf(std::string("k8s", 3)));
  EXPECT_FALSE(ProtoEnvelope::Unwrap(R"({"kind":"PodList"})").ok());
  std::string gzip = std::string("k8s\0", 4) + ProtoWriter().Bytes(2, "x").Bytes(3, "gzip").str();
  auto refused = ProtoEnvelope::Unwrap(gzip);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("gzip"), std::string::npos);
  std::string body = ProtoWriter::Envelope("abcdef");
  EXPECT_FALSE(ProtoEnvelope::Unwrap(body.substr(0, body.size() - 2)).ok());
}

}  // namespace
}  // namespace kube
