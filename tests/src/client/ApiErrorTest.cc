#include <gtest/gtest.h>

#include "src/client/ApiError.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

HttpResponse Response(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

TEST(ApiErrorTest, UsesReasonAndMessageOfStatusBody) {
  Status s = ApiErrorFromResponse(
      Response(404, R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound",
                     "message":"pods \"x\" not found","code":404})"),
      "GET /api/v1/namespaces/d/pods/x");
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "GET /api/v1/namespaces/d/pods/x: pods \"x\" not found");
}

TEST(ApiErrorTest, ExpiredReasonIsGone) {
  Status s = ApiErrorFromResponse(
      Response(410, R"({"kind":"Status","reason":"Expired","message":"too old resource version"})"),
      "LIST");
  EXPECT_EQ(s.code(), StatusCode::kGone);
}

TEST(ApiErrorTest, FallsBackToHttpCodeForNonStatusBodies) {
  EXPECT_EQ(ApiErrorFromResponse(Response(429, "slow down"), "x").code(),
            StatusCode::kTooManyRequests);
  EXPECT_EQ(ApiErrorFromResponse(Response(403, "{not json"), "x").code(), StatusCode::kForbidden);
  Status s = ApiErrorFromResponse(Response(500, ""), "x");
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_EQ(s.message(), "x: HTTP 500");
}

TEST(ApiErrorTest, InvalidCarriesCauses) {
  Status s = ApiErrorFromResponse(
      Response(422,
               R"({"kind":"Status","reason":"Invalid","message":"ResourceClaim \"x\" is invalid",
                     "details":{"causes":[{"reason":"FieldValueInvalid","message":"must be a DNS label",
                                            "field":"spec.devices.requests[0].name"}]}})"),
      "POST");
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
  EXPECT_NE(s.message().find("spec.devices.requests[0].name: must be a DNS label"),
            std::string::npos)
      << s.message();
}

TEST(ApiErrorTest, WrongTypesInStatusBodyDoNotThrow) {
  for (const char* body :
       {R"({"kind":1})", R"({"kind":"Status","reason":5,"message":["x"]})",
        R"({"kind":"Status","details":{"causes":"nope"}})",
        R"({"kind":"Status","details":{"causes":[1,{"field":2}]}})", "[]", "null"}) {
    Status s = ApiErrorFromResponse(Response(500, body), "x");
    EXPECT_EQ(s.code(), StatusCode::kInternal) << body;
  }
}

// A request that accepted protobuf gets its errors in protobuf too.
TEST(ApiErrorTest, ReadsAProtobufStatus) {
  using testing::ProtoWriter;
  std::string status =
      ProtoWriter()
          .Bytes(3, "too old resource version: 5 (9)")
          .Bytes(4, "Expired")
          .Message(5, ProtoWriter().Message(4, ProtoWriter().Bytes(2, "bad").Bytes(3, "spec.x")))
          .Varint(6, 410)
          .str();
  Status s = ApiErrorFromResponse(Response(410, ProtoWriter::Envelope(status)), "LIST pods");
  EXPECT_EQ(s.code(), StatusCode::kGone);
  EXPECT_EQ(s.message(), "LIST pods: too old resource version: 5 (9); spec.x: bad");
  Status garbled = ApiErrorFromResponse(Response(503, std::string("k8s\0\x12\x7f", 6)), "LIST");
  EXPECT_EQ(garbled.code(), StatusCode::kUnavailable);
  EXPECT_EQ(garbled.message(), "LIST: HTTP 503");
}

}  // namespace
}  // namespace kube
