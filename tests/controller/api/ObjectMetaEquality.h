#pragma once

#include <gtest/gtest.h>

#include "src/cache/ObjectMeta.h"

namespace dra::api::testing {

// Expects every field an ObjectMeta keeps to be equal (the JSON and the
// protobuf projections of one object must agree on them).
inline void ExpectSameMeta(const kube::ObjectMeta& a, const kube::ObjectMeta& b) {
  EXPECT_EQ(a.Key(), b.Key());
  EXPECT_EQ(a.uid, b.uid);
  EXPECT_EQ(a.resource_version, b.resource_version);
  EXPECT_EQ(a.deleting, b.deleting);
  EXPECT_EQ(a.labels, b.labels);
}

}  // namespace dra::api::testing
