#include <gtest/gtest.h>

#include "src/client/ApiError.h"

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

}  // namespace
}  // namespace kube
