#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "controller/extended/ExplanationEvent.h"
#include "controller/extended/PodExplainer.h"
#include "controller/report/ExplanationPrinter.h"
#include "tests/controller/inventory/InventoryFixtures.h"

namespace dra::extended {
namespace {

using Reason = NodeVerdict::Reason;
using testing::Gpu;
using testing::Slice;

api::PodView Pod(const std::string& json) {
  simdjson::dom::parser parser;
  auto pod = api::PodView::FromJson(parser.parse(json).value());
  EXPECT_TRUE(pod.ok()) << pod.status().ToString();
  return *pod;
}

const char* kGpuPod = R"({"metadata":{"name":"p","namespace":"team"},"spec":{"containers":[
    {"name":"main","resources":{"limits":{"example.com/gpu":"2","cpu":"1"}}}]},
    "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
    "reason":"Unschedulable","message":"0/3 nodes are available: 3 cannot allocate all claims."}]}})";

// What the scheduler says when its own mapping lacks example.com/gpu: its
// NodeResourcesFit counts the resource against allocatable on every node.
const char* kUnmappedPod = R"({"metadata":{"name":"u","namespace":"team"},"spec":{"containers":[
    {"name":"main","resources":{"limits":{"example.com/gpu":"1"}}}]},
    "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
    "reason":"Unschedulable","message":"0/2 nodes are available: 2 Insufficient example.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."}]}})";

const char* kThreeGpuPod = R"({"metadata":{"name":"p3","namespace":"team"},"spec":{"containers":[
    {"name":"main","resources":{"limits":{"example.com/gpu":"3"}}}]},
    "status":{"phase":"Pending"}})";

std::shared_ptr<const api::NodeView> Node(std::string name, int64_t plugin_gpus = 0) {
  auto node = std::make_shared<api::NodeView>();
  node->meta.name = std::move(name);
  if (plugin_gpus > 0) {
    node->allocatable_extended.emplace_back("example.com/gpu",
                                            kube::Quantity::FromInt64(plugin_gpus));
  }
  return node;
}

std::shared_ptr<const api::DeviceClass> GpuClass(std::string name, int64_t created = 1) {
  auto c = std::make_shared<api::DeviceClass>();
  c->meta.name = std::move(name);
  c->creation_timestamp = created;
  c->extended_resource_name = "example.com/gpu";
  return c;
}

class PodExplainerTest : public ::testing::Test {
 protected:
  PodExplanation Explain(const api::PodView& pod) {
    auto mapping = ExtendedResourceMapping::Build(classes_);
    PodExplainer::Inputs in{mapping, nodes_, inventory_,
                            [this](const std::string&, const std::string& name) {
                              return name == claim_name_ ? claim_ : nullptr;
                            },
                            findings_};
    return PodExplainer::Explain(pod, in);
  }
  void AddClass(std::shared_ptr<const api::DeviceClass> c) {
    classes_.push_back(c);
    inventory_.ApplyClass(c);
  }

  std::vector<std::shared_ptr<const api::DeviceClass>> classes_;
  std::vector<std::shared_ptr<const api::NodeView>> nodes_;
  inventory::Inventory inventory_;
  std::string claim_name_;
  std::shared_ptr<const api::ResourceClaim> claim_;
  std::vector<MappingFinding> findings_;
};

TEST_F(PodExplainerTest, PerNodeReasonsAreSummarized) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(
      Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100")}));
  inventory_.ApplyClaim(testing::Claim("x", "held", {{"node-1", "gpu-0"}}));
  inventory_.ApplySlice(
      Slice("s3", "node-3", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100")}));
  nodes_ = {Node("node-1"), Node("node-2"), Node("node-3"), Node("node-4", 8)};
  auto e = Explain(Pod(kGpuPod));
  ASSERT_EQ(e.nodes.size(), 4u);
  EXPECT_EQ(e.nodes[0].reason, Reason::kNotEnoughFree);
  EXPECT_EQ(e.nodes[0].counts.free, 1);
  EXPECT_EQ(e.nodes[0].needed, 2);
  EXPECT_EQ(e.nodes[1].reason, Reason::kNoDevice);
  EXPECT_EQ(e.nodes[2].reason, Reason::kFits);
  EXPECT_EQ(e.nodes[3].reason, Reason::kDevicePlugin);
  EXPECT_EQ(e.fitting_nodes, 1);
  EXPECT_TRUE(e.schedulable());
  EXPECT_EQ(e.summary,
            "1/4 nodes: 1 have 1 free of 2 gpu.example.com (1 allocated; 2 needed), 1 have no "
            "device of class gpu.example.com, 1 use a device plugin for example.com/gpu");
  ASSERT_EQ(e.translation.requests.size(), 1u);
  EXPECT_EQ(e.translation.requests[0].name, "container-0-request-1");
  EXPECT_EQ(e.scheduler_message, "0/3 nodes are available: 3 cannot allocate all claims.");
}

TEST_F(PodExplainerTest, MissingClassIsNamedAndNoNodeFits) {
  nodes_ = {Node("node-1")};
  auto e = Explain(Pod(kGpuPod));
  ASSERT_EQ(e.notes.size(), 1u);
  EXPECT_NE(e.notes[0].find("no DeviceClass serves example.com/gpu"), std::string::npos);
  EXPECT_EQ(e.nodes[0].reason, Reason::kNoProvider);
  EXPECT_FALSE(e.schedulable());
  EXPECT_NE(ExplanationEvent::Message(e).find("Scheduler: 0/3 nodes"), std::string::npos);
}

TEST_F(PodExplainerTest, LostDuplicateIsNamed) {
  AddClass(GpuClass("old", 1));
  AddClass(GpuClass("new", 2));
  nodes_ = {Node("node-1")};
  auto e = Explain(Pod(kGpuPod));
  ASSERT_EQ(e.notes.size(), 1u);
  EXPECT_EQ(e.notes[0], "example.com/gpu is named by several DeviceClasses; new wins, old lose(s)");
  EXPECT_EQ(e.nodes[0].device_class, "new");
}

TEST_F(PodExplainerTest, TaintedDevicesAreNotFree) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(
      Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100")}));
  inventory_.ApplyTaintRule(
      testing::TaintRule("t", "node-1", "gpu-1", api::TaintEffect::kNoSchedule));
  nodes_ = {Node("node-1")};
  auto e = Explain(Pod(kGpuPod));
  EXPECT_EQ(e.summary,
            "0/1 nodes: 1 have 1 free of 2 gpu.example.com (0 allocated, 1 tainted by "
            "DeviceTaintRule [t]; 2 needed)");
}

// A GPU the driver itself took out (an XID) is told from one a rule took out,
// and the rule is named: the operator knows whom to ask.
TEST_F(PodExplainerTest, TaintsAreToldByTheirSource) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(
      Slice("s1", "node-1",
            {testing::DriverTainted(Gpu("gpu-0", 40, "a100"), "gpu.nvidia.com/xid", "48",
                                    api::TaintEffect::kNoExecute),
             testing::DriverTainted(Gpu("gpu-1", 40, "a100"), "gpu.nvidia.com/xid", "79",
                                    api::TaintEffect::kNoSchedule),
             Gpu("gpu-2", 40, "a100"), Gpu("gpu-3", 40, "a100")}));
  inventory_.ApplyTaintRule(testing::TaintRule("devicehealth-n1-gpu-2", "node-1", "gpu-2",
                                               api::TaintEffect::kNoSchedule));
  nodes_ = {Node("node-1")};
  auto e = Explain(Pod(kGpuPod));
  EXPECT_EQ(e.summary,
            "0/1 nodes: 1 have 1 free of 4 gpu.example.com (0 allocated, 2 tainted by their "
            "driver [gpu.nvidia.com/xid], 1 tainted by DeviceTaintRule [devicehealth-n1-gpu-2]; "
            "2 needed)");
  auto json = nlohmann::json::parse(report::ExplanationPrinter::Json(e));
  ASSERT_EQ(json["nodes"].size(), 1u);
  EXPECT_EQ(json["nodes"][0]["driverTainted"], 2);
  EXPECT_EQ(json["nodes"][0]["ruleTainted"], 1);
  EXPECT_EQ(json["nodes"][0]["taintRules"], nlohmann::json::array({"devicehealth-n1-gpu-2"}));
}

TEST_F(PodExplainerTest, SelectorErrorOnOneNodeLeavesNoNodeForThePod) {
  auto cls = std::make_shared<api::DeviceClass>(*GpuClass("gpu.example.com"));
  cls->selectors = {R"(device.attributes["gpu.example.com"].model == "a100" || )"
                    R"(device.attributes["gpu.example.com"].flaky == 1)"};
  AddClass(cls);
  inventory_.ApplySlice(
      Slice("s1", "node-1",
            {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100"), Gpu("gpu-2", 80, "h100")}));
  inventory_.ApplySlice(
      Slice("s2", "node-2", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100")}));
  nodes_ = {Node("node-1"), Node("node-2")};
  auto e = Explain(Pod(kGpuPod));
  ASSERT_EQ(e.nodes.size(), 2u);
  EXPECT_EQ(e.nodes[0].reason, Reason::kClassUnusable);
  EXPECT_EQ(e.nodes[0].counts.free, 0);
  // node-2 would fit, but the scheduler gives up on the Pod at node-1's error.
  EXPECT_EQ(e.nodes[1].reason, Reason::kClassUnusable);
  EXPECT_FALSE(e.schedulable());
  EXPECT_EQ(e.summary,
            "0/2 nodes: 2 class gpu.example.com unusable: selector error on device "
            "gpu.example.com/node-1/gpu-2: no such key: 'flaky' at 1:93");
}

TEST_F(PodExplainerTest, ScheduledPodJoinsItsClaim) {
  AddClass(GpuClass("gpu.example.com"));
  nodes_ = {Node("node-1")};
  auto claim = std::make_shared<api::ResourceClaim>();
  claim->meta.name = "p-extended-resources-abc";
  claim->allocated = true;
  api::ResourceClaim::Request request;
  request.name = "container-0-request-1";
  request.exactly.emplace();
  request.exactly->device_class_name = "gpu.example.com";
  request.exactly->count = 2;
  claim->requests.push_back(request);
  claim->results.push_back(
      {"container-0-request-1", "gpu.example.com", "node-1", "gpu-0", {}, false, "", {}});
  claim_ = claim;
  claim_name_ = claim->meta.name;
  auto e = Explain(Pod(R"({"metadata":{"name":"p","namespace":"team"},"spec":{"nodeName":"node-1",
      "containers":[{"name":"main","resources":{"limits":{"example.com/gpu":"2","cpu":"1"}}}]},
      "status":{"phase":"Pending","extendedResourceClaimStatus":{
      "resourceClaimName":"p-extended-resources-abc","requestMappings":[{"containerName":"main",
      "resourceName":"example.com/gpu","requestName":"container-0-request-1"}]}}})"));
  EXPECT_TRUE(e.scheduled());
  EXPECT_EQ(e.devices,
            std::vector<std::string>{"gpu.example.com/node-1/gpu-0 (container-0-request-1)"});
  EXPECT_TRUE(e.problems.empty());
  claim->requests[0].exactly->count = 1;  // differs from the translation
  e = Explain(Pod(R"({"metadata":{"name":"p","namespace":"team"},"spec":{"nodeName":"node-1",
      "containers":[{"name":"main","resources":{"limits":{"example.com/gpu":"2"}}}]},
      "status":{"extendedResourceClaimStatus":{"resourceClaimName":"p-extended-resources-abc"}}})"));
  ASSERT_EQ(e.problems.size(), 1u);
  claim_name_ = "other";
  e = Explain(Pod(R"({"metadata":{"name":"p","namespace":"team"},"spec":{"nodeName":"node-1",
      "containers":[{"name":"main","resources":{"limits":{"example.com/gpu":"2"}}}]},
      "status":{"extendedResourceClaimStatus":{"resourceClaimName":"p-extended-resources-abc"}}})"));
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_NE(e.problems[0].find("missing"), std::string::npos);
}

// A NoExecute taint on a held device is why the Pod is being evicted: name it
// next to the device.
TEST_F(PodExplainerTest, ScheduledPodNamesNoExecuteTaintsOnItsDevices) {
  AddClass(GpuClass("gpu.example.com"));
  nodes_ = {Node("node-1")};
  inventory_.ApplySlice(
      Slice("s1", "node-1",
            {Gpu("gpu-0", 40, "a100"),
             testing::DriverTainted(Gpu("gpu-1", 40, "a100"), "gpu.nvidia.com/xid", "48",
                                    api::TaintEffect::kNoExecute)}));
  inventory_.ApplyTaintRule(
      testing::TaintRule("t", "node-1", "gpu-0", api::TaintEffect::kNoExecute));
  auto claim = std::make_shared<api::ResourceClaim>();
  claim->meta.name = "p-extended-resources-abc";
  claim->allocated = true;
  claim->results.push_back(
      {"container-0-request-0", "gpu.example.com", "node-1", "gpu-0", {}, false, "", {}});
  claim->results.push_back(
      {"container-0-request-0", "gpu.example.com", "node-1", "gpu-1", {}, false, "", {}});
  claim_ = claim;
  claim_name_ = claim->meta.name;
  auto e = Explain(Pod(R"({"metadata":{"name":"p","namespace":"team"},"spec":{"nodeName":"node-1",
      "containers":[{"name":"main","resources":{"limits":{"example.com/gpu":"2"}}}]},
      "status":{"extendedResourceClaimStatus":{"resourceClaimName":"p-extended-resources-abc"}}})"));
  EXPECT_EQ(e.devices, (std::vector<std::string>{
                           "gpu.example.com/node-1/gpu-0 (container-0-request-0) tainted "
                           "dra-controller.dev/unhealthy=xid-79:NoExecute (rule t)",
                           "gpu.example.com/node-1/gpu-1 (container-0-request-0) tainted "
                           "gpu.nvidia.com/xid=48:NoExecute (driver)"}));
}

TEST_F(PodExplainerTest, AllNodesFitSaysSo) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(
      Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100")}));
  nodes_ = {Node("node-1")};
  auto e = Explain(Pod(kGpuPod));
  EXPECT_EQ(e.summary, "1/1 nodes have enough free devices for DRA");
  EXPECT_TRUE(e.schedulable());
}

// node-a publishes one partitionable GPU: the whole GPU and its two halves
// share 80Gi of counters. Each of the three is free on its own, so the counts
// say three; the allocator can only take the two halves or the whole GPU.
TEST_F(PodExplainerTest, DevicesThatCannotBeAllocatedTogetherDoNotFit) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(testing::CounterSlice(
      "mig-counters", "node-a", {testing::Counters("gpu-0", {{"memory", 80LL << 30}})}));
  inventory_.ApplySlice(
      Slice("mig-devices", "node-a",
            {testing::Partition("full", "gpu-0", 80), testing::Partition("half-0", "gpu-0", 40),
             testing::Partition("half-1", "gpu-0", 40)},
            1, 2));
  inventory_.ApplySlice(
      Slice("plain", "node-b",
            {Gpu("gpu-0", 40, "a100"), Gpu("gpu-1", 40, "a100"), Gpu("gpu-2", 40, "a100")}));
  nodes_ = {Node("node-a"), Node("node-b")};
  auto three = Explain(Pod(kThreeGpuPod));
  ASSERT_EQ(three.nodes.size(), 2u);
  EXPECT_EQ(three.nodes[0].reason, Reason::kNotTogether);
  EXPECT_FALSE(three.nodes[0].detail.empty());
  EXPECT_EQ(three.nodes[1].reason, Reason::kFits);
  EXPECT_EQ(three.fitting_nodes, 1);
  EXPECT_NE(three.summary.find("1 have the devices but cannot allocate them all together: " +
                               three.nodes[0].detail),
            std::string::npos)
      << three.summary;
  EXPECT_NE(report::ExplanationPrinter::Json(three).find("\"reason\": \"NotTogether\""),
            std::string::npos);

  // Two devices: the two halves together fit.
  auto two = Explain(Pod(kGpuPod));
  EXPECT_EQ(two.nodes[0].reason, Reason::kFits);
  EXPECT_EQ(two.fitting_nodes, 2);
}

// The whole partitionable GPU is allocated: its halves are not allocated,
// yet none is free, and the reason names their counters.
TEST_F(PodExplainerTest, HalvesOfAnAllocatedGpuAreNotFreeAndSayWhy) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(testing::CounterSlice(
      "mig-counters", "node-a", {testing::Counters("gpu-0", {{"memory", 80LL << 30}})}));
  inventory_.ApplySlice(
      Slice("mig-devices", "node-a",
            {testing::Partition("full", "gpu-0", 80), testing::Partition("half-0", "gpu-0", 40),
             testing::Partition("half-1", "gpu-0", 40)},
            1, 2));
  inventory_.ApplyClaim(testing::ClaimOf("whole", {testing::Result("node-a", "full")}));
  nodes_ = {Node("node-a")};
  auto out = Explain(Pod(kGpuPod));
  ASSERT_EQ(out.nodes.size(), 1u);
  EXPECT_EQ(out.nodes[0].reason, Reason::kNotEnoughFree);
  EXPECT_EQ(out.summary,
            "0/1 nodes: 1 have 0 free of 3 gpu.example.com (1 allocated, 2 with counters in use; "
            "2 needed)");
}

// The devices are there, but the scheduler's mapping lost the resource (the
// order hazard): no node takes the Pod, and the explanation says why.
TEST_F(PodExplainerTest, SchedulerWithoutTheMappingLeavesNoNode) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100")}));
  inventory_.ApplySlice(Slice("s2", "node-2", {Gpu("gpu-0", 40, "a100")}));
  nodes_ = {Node("node-1"), Node("node-2")};
  auto e = Explain(Pod(kUnmappedPod));
  ASSERT_EQ(e.nodes.size(), 2u);
  EXPECT_EQ(e.nodes[0].reason, Reason::kSchedulerUnmapped);
  EXPECT_EQ(e.nodes[1].reason, Reason::kSchedulerUnmapped);
  EXPECT_EQ(e.fitting_nodes, 0);
  EXPECT_FALSE(e.schedulable());
  bool named = false;
  for (const auto& note : e.notes) named |= note.find("kube-scheduler has no DeviceClass") == 0;
  EXPECT_TRUE(named) << report::ExplanationPrinter::Text(e);
  EXPECT_NE(ExplanationEvent::Message(e).find("kube-scheduler has no DeviceClass"),
            std::string::npos)
      << ExplanationEvent::Message(e);
  EXPECT_NE(report::ExplanationPrinter::Json(e).find("\"reason\": \"SchedulerUnmapped\""),
            std::string::npos);
}

// A hazard the controller reports (it saw the winner leave) counts the same.
TEST_F(PodExplainerTest, ReportedHazardLeavesNoNode) {
  AddClass(GpuClass("gpu.example.com"));
  inventory_.ApplySlice(Slice("s1", "node-1", {Gpu("gpu-0", 40, "a100")}));
  nodes_ = {Node("node-1")};
  findings_ = {{MappingFinding::Kind::kOrderHazard, "DeviceClass", "gpu.example.com",
                "example.com/gpu", "departed", "hazard text"}};
  auto e = Explain(Pod(kThreeGpuPod));
  ASSERT_EQ(e.nodes.size(), 1u);
  EXPECT_EQ(e.nodes[0].reason, Reason::kSchedulerUnmapped);
  EXPECT_FALSE(e.schedulable());
}

TEST_F(PodExplainerTest, SummaryCapsGroups) {
  std::vector<NodeVerdict> nodes;
  for (int i = 0; i < 8; ++i) {
    NodeVerdict v;
    v.node = "n" + std::to_string(i);
    v.reason = Reason::kNoDevice;
    v.device_class = "c" + std::to_string(i);
    nodes.push_back(v);
  }
  auto summary = PodExplainer::Summarize(nodes, 2);
  EXPECT_EQ(summary,
            "0/8 nodes: 1 have no device of class c0, 1 have no device of class c1, 6 for other "
            "reasons");
}

TEST_F(PodExplainerTest, PrintersRender) {
  AddClass(GpuClass("gpu.example.com"));
  nodes_ = {Node("node-1")};
  auto e = Explain(Pod(kGpuPod));
  auto text = report::ExplanationPrinter::Text(e);
  EXPECT_NE(text.find("container main: example.com/gpu -> 2 x class gpu.example.com as request "
                      "container-0-request-1"),
            std::string::npos)
      << text;
  auto json = report::ExplanationPrinter::Json(e);
  EXPECT_NE(json.find("\"reason\": \"NoDevice\""), std::string::npos);
}

}  // namespace
}  // namespace dra::extended
