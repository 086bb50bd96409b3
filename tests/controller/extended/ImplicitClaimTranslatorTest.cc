#include <gtest/gtest.h>

#include "controller/extended/ImplicitClaimTranslator.h"
#include "src/cache/JsonFields.h"

namespace dra::extended {
namespace {

api::PodView Pod(const char* json) {
  simdjson::dom::parser parser;
  auto pod = api::PodView::FromJson(parser.parse(std::string(json)).value());
  EXPECT_TRUE(pod.ok()) << pod.status().ToString();
  return *pod;
}

std::optional<std::string> Gpu(std::string_view resource) {
  if (resource == "example.com/gpu") return std::string("gpu.example.com");
  if (resource == "example.com/nic") return std::string("nic.example.com");
  return std::nullopt;
}

bool AllDra(std::string_view) { return true; }

ImplicitClaim Translate(const char* json) {
  return ImplicitClaimTranslator::Translate(Pod(json).containers, Gpu, AllDra);
}

TEST(ImplicitClaimTranslatorTest, OneContainerIndexCountsCpuAndMemory) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{"containers":[
      {"name":"main","resources":{"limits":{"example.com/gpu":"2","cpu":"1","memory":"1Gi"}}}]}})");
  // sorted: cpu, example.com/gpu, memory -> j = 1
  ASSERT_EQ(claim.requests.size(), 1u);
  EXPECT_EQ(claim.requests[0], (ImplicitRequest{"container-0-request-1", "gpu.example.com", 2}));
  ASSERT_EQ(claim.mappings.size(), 1u);
  EXPECT_EQ(claim.mappings[0],
            (ImplicitMapping{"main", "example.com/gpu", "container-0-request-1"}));
}

TEST(ImplicitClaimTranslatorTest, EveryContainerAndResourceGetsItsOwnRequestSortedByName) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{"containers":[
      {"name":"a","resources":{"requests":{"example.com/nic":"1","example.com/gpu":"1"}}},
      {"name":"b","resources":{"requests":{"example.com/gpu":"3"}}}]}})");
  ASSERT_EQ(claim.requests.size(), 3u);
  EXPECT_EQ(claim.requests[0], (ImplicitRequest{"container-0-request-0", "gpu.example.com", 1}));
  EXPECT_EQ(claim.requests[1], (ImplicitRequest{"container-0-request-1", "nic.example.com", 1}));
  EXPECT_EQ(claim.requests[2], (ImplicitRequest{"container-1-request-0", "gpu.example.com", 3}));
}

TEST(ImplicitClaimTranslatorTest, InitContainerReusesALaterLongLivedRequest) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"init","resources":{"requests":{"example.com/gpu":"1"}}}],
      "containers":[{"name":"main","resources":{"requests":{"example.com/gpu":"2"}}}]}})");
  ASSERT_EQ(claim.requests.size(), 1u);
  EXPECT_EQ(claim.requests[0], (ImplicitRequest{"container-1-request-0", "gpu.example.com", 2}));
  ASSERT_EQ(claim.mappings.size(), 2u);
  EXPECT_EQ(claim.mappings[1],
            (ImplicitMapping{"init", "example.com/gpu", "container-1-request-0"}));
}

TEST(ImplicitClaimTranslatorTest, InitContainersShareTheLargestOwnRequest) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"i0","resources":{"requests":{"example.com/gpu":"2"}}},
                        {"name":"i1","resources":{"requests":{"example.com/gpu":"5"}}}],
      "containers":[{"name":"main","resources":{"requests":{"example.com/gpu":"1"}}}]}})");
  // i0 and i1 each reuse main's 1 and need more: 1 and 4; the 4 stands in for both.
  ASSERT_EQ(claim.requests.size(), 2u);
  EXPECT_EQ(claim.requests[0], (ImplicitRequest{"container-1-request-0", "gpu.example.com", 4}));
  EXPECT_EQ(claim.requests[1], (ImplicitRequest{"container-2-request-0", "gpu.example.com", 1}));
  for (const auto& m : claim.mappings) {
    EXPECT_NE(m.request_name, "container-0-request-0") << m.container_name;
  }
}

TEST(ImplicitClaimTranslatorTest, SidecarIsLongLived) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"side","restartPolicy":"Always",
                         "resources":{"requests":{"example.com/gpu":"1"}}}],
      "containers":[{"name":"main","resources":{"requests":{"example.com/gpu":"1"}}}]}})");
  ASSERT_EQ(claim.requests.size(), 2u);
  EXPECT_EQ(claim.requests[0].name, "container-0-request-0");
  EXPECT_EQ(claim.requests[1].name, "container-1-request-0");
}

TEST(ImplicitClaimTranslatorTest, DevicePluginNodeAndUnmappedNamesTakeNoPart) {
  auto pod = Pod(R"({"metadata":{"name":"p"},"spec":{"containers":[
      {"name":"main","resources":{"requests":{"example.com/gpu":"1","other.com/x":"1"}}}]}})");
  auto claim = ImplicitClaimTranslator::Translate(pod.containers, Gpu,
                                                  [](std::string_view) { return false; });
  EXPECT_TRUE(claim.empty());
  EXPECT_EQ(ImplicitClaimTranslator::DraResources(pod.containers, Gpu),
            std::vector<std::string>{"example.com/gpu"});
}

TEST(ImplicitClaimTranslatorTest, NonIntegerQuantityIsSkippedAndReported) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{"containers":[
      {"name":"main","resources":{"requests":{"example.com/gpu":"500m"}}}]}})");
  EXPECT_TRUE(claim.requests.empty());
  ASSERT_EQ(claim.skipped.size(), 1u);
  EXPECT_EQ(claim.skipped[0].quantity, "500m");
}

// Regression (PodViewFuzz corpus: init-reuses-long-lived.json): the sum of
// reused counts overflowed int64, undefined behaviour in C++. The scheduler's
// Go sum wraps; so does ours now, and the result is the scheduler's.
TEST(ImplicitClaimTranslatorTest, ReusedCountsThatOverflowWrapLikeTheScheduler) {
  auto claim = Translate(R"({"metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"init",
                         "resources":{"requests":{"example.com/gpu":"9223372036854775807"}}}],
      "containers":[
        {"name":"a","resources":{"requests":{"example.com/gpu":"9000000000000000000"}}},
        {"name":"b","resources":{"requests":{"example.com/gpu":"9000000000000000000"}}}]}})");
  // 9e18 + 9e18 wraps to -446744073709551616, short of the init container's
  // request, which then asks for the (wrapped) rest itself.
  ASSERT_EQ(claim.requests.size(), 3u);
  EXPECT_EQ(claim.requests[0],
            (ImplicitRequest{"container-0-request-0", "gpu.example.com", -8776627963145224193}));
  ASSERT_EQ(claim.mappings.size(), 5u);
  EXPECT_EQ(claim.mappings[2].request_name, "container-1-request-0");
  EXPECT_EQ(claim.mappings[3].request_name, "container-2-request-0");
  EXPECT_EQ(claim.mappings[4].request_name, "container-0-request-0");
}

}  // namespace
}  // namespace dra::extended
