#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "src/client/RestClient.h"
#include "tests/support/TestCluster.h"

namespace dra::testing {

// Base fixture of integration tests: connects to the control plane from the
// environment, or skips (fails under DRA_REQUIRE_CLUSTER=1, as in `make test`).
// Subclasses that override SetUp call ClusterTest::SetUp() first and return
// if Skipped() is true.
class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override;
  bool Skipped() const { return IsSkipped() || HasFatalFailure(); }

  std::optional<TestCluster> cluster_;
  std::shared_ptr<kube::RestClient> client_;
};

}  // namespace dra::testing
