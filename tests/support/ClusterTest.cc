#include "tests/support/ClusterTest.h"

#include <cstdlib>

namespace dra::testing {

void ClusterTest::SetUp() {
  auto cluster = TestCluster::FromEnvironment();
  if (!cluster.ok()) {
    if (std::getenv("DRA_REQUIRE_CLUSTER") != nullptr) FAIL() << cluster.status().ToString();
    GTEST_SKIP() << cluster.status().ToString();
  }
  cluster_.emplace(*cluster);
  auto client = cluster_->NewRestClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  client_ = *client;
}

}  // namespace dra::testing
