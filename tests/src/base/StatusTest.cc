#include <gtest/gtest.h>

#include "src/base/Status.h"

namespace kube {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s(StatusCode::kNotFound, "pods \"x\" not found");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.ToString(), "NotFound: pods \"x\" not found");
}

TEST(StatusTest, WithContextPrefixesErrorsOnly) {
  Status err(StatusCode::kParseError, "line 3: bad indent");
  EXPECT_EQ(err.WithContext("loading kubeconfig").message(),
            "loading kubeconfig: line 3: bad indent");
  EXPECT_EQ(err.WithContext("x").code(), StatusCode::kParseError);
  EXPECT_TRUE(Status::Ok().WithContext("ignored").message().empty());
}

TEST(StatusTest, EveryCodeHasAName) {
  for (int c = static_cast<int>(StatusCode::kOk); c <= static_cast<int>(StatusCode::kInternal);
       ++c) {
    EXPECT_NE(StatusCodeName(static_cast<StatusCode>(c)), "Unknown") << c;
  }
}

}  // namespace
}  // namespace kube
