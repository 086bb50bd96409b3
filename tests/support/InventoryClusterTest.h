#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "controller/inventory/Inventory.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/cache/InformerRegistry.h"
#include "tests/support/SchedulingClusterTest.h"

namespace dra::testing {

// A SchedulingClusterTest whose controller-side view is the inventory, fed by
// its informers against the cluster: tests compare the scheduler's placements
// with inventory_. Header-only because test_support is the runtime's helper
// library and does not link the controller's; integration tests do.
class InventoryClusterTest : public SchedulingClusterTest {
 protected:
  void TearDown() override {
    if (informers_) informers_->StopAll();
    SchedulingClusterTest::TearDown();
  }

  // Starts the inventory's informers and waits (30 s) until they synced.
  ::testing::AssertionResult StartInventory() {
    auto client = cluster_->NewRestClient();
    if (!client.ok()) return ::testing::AssertionFailure() << client.status().ToString();
    informers_ = std::make_unique<kube::InformerRegistry>(*client);
    feeds_ = std::make_unique<inventory::InventoryInformers>(*informers_, inventory_);
    informers_->StartAll();
    if (feeds_->WaitForSync(std::chrono::seconds(30))) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "inventory informers did not sync";
  }

  inventory::Inventory inventory_;
  std::unique_ptr<kube::InformerRegistry> informers_;
  std::unique_ptr<inventory::InventoryInformers> feeds_;
};

}  // namespace dra::testing
