#pragma once

#include <gtest/gtest.h>

#include "controller/api/PodView.h"
#include "tests/controller/api/ObjectMetaEquality.h"

namespace dra::api::testing {

// Expects every field a PodView keeps to be equal: what the JSON and the
// protobuf projections of one Pod must agree on.
inline void ExpectSamePodView(const PodView& a, const PodView& b) {
  ExpectSameMeta(a.meta, b.meta);
  EXPECT_EQ(a.node_name, b.node_name);
  EXPECT_EQ(a.phase, b.phase);
  ASSERT_EQ(a.containers.size(), b.containers.size()) << a.meta.Key();
  for (size_t i = 0; i < a.containers.size(); ++i) {
    const auto& x = a.containers[i];
    const auto& y = b.containers[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.is_init, y.is_init);
    EXPECT_EQ(x.is_sidecar, y.is_sidecar);
    ASSERT_EQ(x.resources.size(), y.resources.size()) << a.meta.Key() << " container " << i;
    for (size_t j = 0; j < x.resources.size(); ++j) {
      EXPECT_EQ(x.resources[j].name, y.resources[j].name);
      EXPECT_EQ(x.resources[j].request, y.resources[j].request);
      EXPECT_EQ(x.resources[j].limit, y.resources[j].limit);
      EXPECT_EQ(x.resources[j].has_request, y.resources[j].has_request);
      EXPECT_EQ(x.resources[j].has_limit, y.resources[j].has_limit);
      EXPECT_EQ(x.resources[j].request_index, y.resources[j].request_index);
    }
  }
  ASSERT_EQ(a.extended_resource_claim_status.has_value(),
            b.extended_resource_claim_status.has_value());
  if (a.extended_resource_claim_status) {
    const auto& x = *a.extended_resource_claim_status;
    const auto& y = *b.extended_resource_claim_status;
    EXPECT_EQ(x.resource_claim_name, y.resource_claim_name);
    ASSERT_EQ(x.request_mappings.size(), y.request_mappings.size());
    for (size_t i = 0; i < x.request_mappings.size(); ++i) {
      EXPECT_EQ(x.request_mappings[i].container_name, y.request_mappings[i].container_name);
      EXPECT_EQ(x.request_mappings[i].resource_name, y.request_mappings[i].resource_name);
      EXPECT_EQ(x.request_mappings[i].request_name, y.request_mappings[i].request_name);
    }
  }
  ASSERT_EQ(a.device_reports.size(), b.device_reports.size()) << a.meta.Key();
  for (size_t i = 0; i < a.device_reports.size(); ++i) {
    EXPECT_EQ(a.device_reports[i].container, b.device_reports[i].container);
    EXPECT_EQ(a.device_reports[i].claim, b.device_reports[i].claim);
    EXPECT_EQ(a.device_reports[i].resource_id, b.device_reports[i].resource_id);
    EXPECT_EQ(a.device_reports[i].health, b.device_reports[i].health);
  }
  ASSERT_EQ(a.claim_refs.size(), b.claim_refs.size()) << a.meta.Key();
  for (size_t i = 0; i < a.claim_refs.size(); ++i) {
    EXPECT_EQ(a.claim_refs[i].name, b.claim_refs[i].name);
    EXPECT_EQ(a.claim_refs[i].resource_claim_name, b.claim_refs[i].resource_claim_name);
  }
  ASSERT_EQ(a.scheduled == nullptr, b.scheduled == nullptr);
  if (a.scheduled) {
    EXPECT_EQ(a.scheduled->status, b.scheduled->status);
    EXPECT_EQ(a.scheduled->reason, b.scheduled->reason);
    EXPECT_EQ(a.scheduled->message, b.scheduled->message);
  }
}

}  // namespace dra::api::testing
