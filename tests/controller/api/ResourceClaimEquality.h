#pragma once

#include <gtest/gtest.h>

#include <span>

#include "controller/api/ResourceClaim.h"
#include "tests/controller/api/ObjectMetaEquality.h"

namespace dra::api::testing {

inline void ExpectSameTolerations(std::span<const DeviceToleration> a,
                                  std::span<const DeviceToleration> b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].key, b[i].key);
    EXPECT_EQ(a[i].value, b[i].value);
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].effect, b[i].effect);
    EXPECT_EQ(a[i].unknown_effect, b[i].unknown_effect);
    EXPECT_EQ(a[i].toleration_seconds, b[i].toleration_seconds);
  }
}

inline void ExpectSameExact(const ResourceClaim::ExactRequest& a,
                            const ResourceClaim::ExactRequest& b) {
  EXPECT_EQ(a.device_class_name, b.device_class_name);
  EXPECT_EQ(a.selectors, b.selectors);
  EXPECT_EQ(a.allocation_mode, b.allocation_mode);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.admin_access, b.admin_access);
  EXPECT_EQ(a.capacity_requests, b.capacity_requests);
  EXPECT_EQ(a.invalid_reason, b.invalid_reason);
  ExpectSameTolerations(a.tolerations, b.tolerations);
}

// Expects every field a ResourceClaim keeps to be equal: what the JSON and
// the protobuf projections of one claim must agree on.
inline void ExpectSameClaim(const ResourceClaim& a, const ResourceClaim& b) {
  ExpectSameMeta(a.meta, b.meta);
  EXPECT_EQ(a.extended_resource_claim, b.extended_resource_claim);
  EXPECT_EQ(a.allocated, b.allocated);
  EXPECT_EQ(a.pod_claim_name, b.pod_claim_name);
  ASSERT_EQ(a.controller.has_value(), b.controller.has_value());
  if (a.controller) {
    EXPECT_EQ(a.controller->kind, b.controller->kind);
    EXPECT_EQ(a.controller->name, b.controller->name);
    EXPECT_EQ(a.controller->uid, b.controller->uid);
  }
  ASSERT_EQ(a.requests.size(), b.requests.size());
  for (size_t i = 0; i < a.requests.size(); ++i) {
    EXPECT_EQ(a.requests[i].name, b.requests[i].name);
    ASSERT_EQ(a.requests[i].exactly.has_value(), b.requests[i].exactly.has_value());
    if (a.requests[i].exactly) ExpectSameExact(*a.requests[i].exactly, *b.requests[i].exactly);
    ASSERT_EQ(a.requests[i].first_available.size(), b.requests[i].first_available.size());
    for (size_t j = 0; j < a.requests[i].first_available.size(); ++j) {
      EXPECT_EQ(a.requests[i].first_available[j].name, b.requests[i].first_available[j].name);
      ExpectSameExact(a.requests[i].first_available[j].request,
                      b.requests[i].first_available[j].request);
    }
  }
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) {
    EXPECT_EQ(a.results[i].request, b.results[i].request);
    EXPECT_EQ(a.results[i].driver, b.results[i].driver);
    EXPECT_EQ(a.results[i].pool, b.results[i].pool);
    EXPECT_EQ(a.results[i].device, b.results[i].device);
    EXPECT_EQ(a.results[i].admin_access, b.results[i].admin_access);
    EXPECT_EQ(a.results[i].share_id, b.results[i].share_id);
    EXPECT_EQ(a.results[i].consumed_capacity, b.results[i].consumed_capacity);
    ExpectSameTolerations(a.results[i].tolerations, b.results[i].tolerations);
  }
  EXPECT_EQ(a.allocated_node_name, b.allocated_node_name);
  ASSERT_EQ(a.reserved_for.size(), b.reserved_for.size());
  for (size_t i = 0; i < a.reserved_for.size(); ++i) {
    EXPECT_EQ(a.reserved_for[i].resource, b.reserved_for[i].resource);
    EXPECT_EQ(a.reserved_for[i].name, b.reserved_for[i].name);
    EXPECT_EQ(a.reserved_for[i].uid, b.reserved_for[i].uid);
  }
  EXPECT_EQ(a.warnings, b.warnings);
}

}  // namespace dra::api::testing
