#pragma once

#include <string>

namespace dra::testing {

// Realistic API objects as JSON text for benchmarks and fuzz seeds: a Pod as
// the API server returns it (managedFields, owner references, two containers
// with resources, conditions) and a ResourceSlice with `devices` GPUs.
std::string FakePodJson(int index, const std::string& ns = "ml");
std::string FakeSliceJson(int index, int devices);
// An implicit extended-resource claim as the scheduler writes it: one
// request, allocated to gpu-(index % 8) on node-(index / 8), reserved for
// its Pod.
std::string FakeAllocatedClaimJson(int index, const std::string& ns = "ml");
// "{"type":"ADDED","object":<object>}" as one watch line (no newline).
std::string WatchLine(const std::string& type, const std::string& object);
// A list body {"kind":...List,"metadata":{...},"items":[...]}.
std::string ListBody(const std::string& kind, const std::string& items_joined);

}  // namespace dra::testing
