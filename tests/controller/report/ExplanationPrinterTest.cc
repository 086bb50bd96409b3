#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "controller/report/ExplanationPrinter.h"

namespace dra::report {

using extended::NodeVerdict;
using extended::PodExplanation;

namespace {

PodExplanation Pending() {
  PodExplanation e;
  e.pod = "team/p";
  e.phase = "Pending";
  e.dra_resources = {"example.com/gpu"};
  e.translation.requests = {{"container-0-request-1", "gpu.example.com", 2}};
  e.translation.mappings = {{"main", "example.com/gpu", "container-0-request-1"}};
  e.translation.skipped = {{"main", "example.com/nic", "500m"}};
  e.notes = {"example.com/gpu is named by several DeviceClasses; new wins, old lose(s)."};
  e.summary = "0/3 nodes: 3 have no device of class gpu.example.com";
  e.scheduler_message = "0/3 nodes are available: 3 Insufficient example.com/gpu.";
  NodeVerdict v;
  v.node = "n1";
  v.reason = NodeVerdict::Reason::kNoDevice;
  v.device_class = "gpu.example.com";
  e.nodes = {v};
  return e;
}

TEST(ExplanationPrinterTest, TextShowsTranslationNotesNodesAndScheduler) {
  std::string text = ExplanationPrinter::Text(Pending());
  EXPECT_EQ(text,
            "Pod team/p (Pending), not scheduled\n"
            "Implicit claim:\n"
            "  container main: example.com/gpu -> 2 x class gpu.example.com as request "
            "container-0-request-1\n"
            "  container main: example.com/nic=500m ignored (not a whole number)\n"
            "Note: example.com/gpu is named by several DeviceClasses; new wins, old lose(s).\n"
            "Nodes: 0/3 nodes: 3 have no device of class gpu.example.com\n"
            "Scheduler: 0/3 nodes are available: 3 Insufficient example.com/gpu.\n");
}

TEST(ExplanationPrinterTest, JsonCarriesRequestsAndVerdicts) {
  auto json = nlohmann::json::parse(ExplanationPrinter::Json(Pending()));
  EXPECT_EQ(json["requests"][0]["name"], "container-0-request-1");
  EXPECT_EQ(json["requests"][0]["count"], 2);
  EXPECT_EQ(json["nodes"][0]["reason"], "NoDevice");
  EXPECT_EQ(json["schedulable"], false);
  EXPECT_EQ(json["scheduled"], false);
}

TEST(ExplanationPrinterTest, ScheduledPodShowsClaimDevicesAndProblems) {
  PodExplanation e;
  e.pod = "team/p";
  e.phase = "Running";
  e.node_name = "n1";
  e.claim_name = "p-extended-resources-x";
  e.devices = {"gpu.example.com/n1/gpu-0 (container-0-request-0)"};
  e.problems = {"claim p-extended-resources-x is not allocated"};
  std::string text = ExplanationPrinter::Text(e);
  EXPECT_NE(text.find("on node n1"), std::string::npos);
  EXPECT_NE(text.find("  device gpu.example.com/n1/gpu-0 (container-0-request-0)\n"),
            std::string::npos);
  EXPECT_NE(text.find("Problem: claim p-extended-resources-x is not allocated\n"),
            std::string::npos);
}

TEST(ExplanationPrinterTest, EvictedPodSaysItIsTerminatingAndWhy) {
  PodExplanation e;
  e.pod = "team/p";
  e.phase = "Pending";
  e.node_name = "node-a";
  e.termination =
      "evicted: DeletionByDeviceTaintManager: Device Taint manager: deleting due to NoExecute "
      "taint; deleted at 2026-12-04T16:00:00Z";
  std::string text = ExplanationPrinter::Text(e);
  EXPECT_NE(text.find("on node node-a, being terminated\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Terminating: evicted: DeletionByDeviceTaintManager: Device Taint manager: "
                      "deleting due to NoExecute taint; deleted at 2026-12-04T16:00:00Z\n"),
            std::string::npos)
      << text;
  auto json = nlohmann::json::parse(ExplanationPrinter::Json(e));
  EXPECT_EQ(json["terminating"], true);
  EXPECT_EQ(json["termination"], e.termination);
  EXPECT_EQ(nlohmann::json::parse(ExplanationPrinter::Json(Pending()))["terminating"], false);
}

}  // namespace
}  // namespace dra::report
