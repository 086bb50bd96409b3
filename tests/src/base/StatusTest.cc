#include <gtest/gtest.h>

#include <string>
#include <vector>

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

namespace kube {
namespace {

Status FailsAt(int step, int fail_at, std::vector<int>& reached) {
  reached.push_back(step);
  return step == fail_at ? Status(StatusCode::kInvalid, "step " + std::to_string(step))
                         : Status::Ok();
}

Status RunSteps(int fail_at, std::vector<int>& reached) {
  for (int step = 1; step <= 3; ++step) KUBE_RETURN_IF_ERROR(FailsAt(step, fail_at, reached));
  return Status::Ok();
}

TEST(ReturnIfErrorTest, ReturnsTheFirstErrorAndStopsThere) {
  std::vector<int> reached;
  Status status = RunSteps(2, reached);
  EXPECT_EQ(status.code(), StatusCode::kInvalid);
  EXPECT_EQ(status.message(), "step 2");
  EXPECT_EQ(reached, (std::vector<int>{1, 2}));
  reached.clear();
  EXPECT_TRUE(RunSteps(0, reached).ok());
  EXPECT_EQ(reached, (std::vector<int>{1, 2, 3}));
}

}  // namespace
}  // namespace kube
