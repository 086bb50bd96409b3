#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/ClusterTest.h"

namespace dra::testing {

// A ClusterTest for tests that have the real scheduler place Pods: a fake
// fleet (ApplyFakeFleet specs), cluster-scoped objects the test owns and a
// test namespace, all removed at TearDown, and the questions such tests ask
// about a Pod.
class SchedulingClusterTest : public ClusterTest {
 protected:
  void TearDown() override;

  // Applies the fleet; TearDown removes it.
  ::testing::AssertionResult ApplyFleet(const std::vector<std::string>& fleet);
  // Applies a cluster-scoped manifest; TearDown deletes `kind` `name`.
  ::testing::AssertionResult ApplyOwned(const std::string& kind, const std::string& name,
                                        const std::string& manifest);
  // Creates a test namespace named after `prefix` into ns_; TearDown deletes it.
  ::testing::AssertionResult CreateNamespace(const std::string& prefix);

  // Pod `name` of ns_, or null when it cannot be read.
  nlohmann::json Pod(const std::string& name);
  // Where the scheduler bound it; "" while it is not bound.
  std::string NodeOf(const std::string& name);
  // The scheduler has said it cannot place it (PodScheduled False).
  bool Unschedulable(const std::string& name);
  static bool IsUnschedulable(const nlohmann::json& pod);

  std::string ns_;

 private:
  std::vector<std::string> fleet_;
  std::vector<std::pair<std::string, std::string>> owned_;  // kind, name
};

}  // namespace dra::testing
