#include "controller/report/ExplanationPrinter.h"

#include <nlohmann/json.hpp>

namespace dra::report {

using extended::NodeVerdict;
using extended::PodExplanation;

namespace {

using Reason = NodeVerdict::Reason;

std::string Translation(const PodExplanation& e) {
  std::string out;
  for (const auto& m : e.translation.mappings) {
    std::string cls;
    int64_t count = 0;
    for (const auto& r : e.translation.requests) {
      if (r.name == m.request_name) {
        cls = r.device_class;
        count = r.count;
      }
    }
    out += "  container " + m.container_name + ": " + m.resource_name + " -> " +
           std::to_string(count) + " x class " + cls + " as request " + m.request_name + "\n";
  }
  for (const auto& s : e.translation.skipped) {
    out += "  container " + s.container_name + ": " + s.resource_name + "=" + s.quantity +
           " ignored (not a whole number)\n";
  }
  return out;
}

}  // namespace

std::string ExplanationPrinter::ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kFits:
      return "Fits";
    case Reason::kNoDevice:
      return "NoDevice";
    case Reason::kNotEnoughFree:
      return "NotEnoughFree";
    case Reason::kClassUnusable:
      return "ClassUnusable";
    case Reason::kDevicePlugin:
      return "DevicePlugin";
    case Reason::kNoProvider:
      return "NoProvider";
    case Reason::kCordoned:
      return "Cordoned";
    case Reason::kNotTogether:
      return "NotTogether";
    case Reason::kSchedulerUnmapped:
      return "SchedulerUnmapped";
  }
  return "Unknown";
}

std::string ExplanationPrinter::Text(const PodExplanation& e) {
  std::string out = "Pod " + e.pod + " (" + (e.phase.empty() ? "?" : e.phase) + ")" +
                    (e.scheduled() ? " on node " + e.node_name : ", not scheduled") +
                    (e.terminating() ? ", being terminated" : "") + "\n";
  if (e.terminating()) out += "Terminating: " + e.termination + "\n";
  if (e.dra_resources.empty()) out += "Asks for no extended resource served by a DeviceClass.\n";
  if (!e.translation.mappings.empty()) out += "Implicit claim:\n" + Translation(e);
  for (const auto& note : e.notes) out += "Note: " + note + "\n";
  if (e.scheduled()) {
    if (!e.claim_name.empty()) out += "Claim: " + e.claim_name + "\n";
    for (const auto& d : e.devices) out += "  device " + d + "\n";
    for (const auto& p : e.problems) out += "Problem: " + p + "\n";
    return out;
  }
  if (!e.summary.empty()) out += "Nodes: " + e.summary + "\n";
  for (const auto& v : e.nodes) {
    if (v.reason == Reason::kFits) out += "  " + v.node + ": fits\n";
  }
  if (!e.scheduler_message.empty()) out += "Scheduler: " + e.scheduler_message + "\n";
  return out;
}

std::string ExplanationPrinter::Json(const PodExplanation& e) {
  nlohmann::json requests = nlohmann::json::array();
  for (const auto& r : e.translation.requests) {
    requests.push_back({{"name", r.name}, {"deviceClassName", r.device_class}, {"count", r.count}});
  }
  nlohmann::json mappings = nlohmann::json::array();
  for (const auto& m : e.translation.mappings) {
    mappings.push_back({{"containerName", m.container_name},
                        {"resourceName", m.resource_name},
                        {"requestName", m.request_name}});
  }
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& v : e.nodes) {
    nodes.push_back({{"node", v.node},
                     {"reason", ReasonName(v.reason)},
                     {"deviceClass", v.device_class},
                     {"resource", v.resource},
                     {"needed", v.needed},
                     {"total", v.counts.total},
                     {"free", v.counts.free},
                     {"allocated", v.counts.allocated},
                     {"driverTainted", v.counts.driver_tainted},
                     {"driverTaintKeys", v.counts.driver_taint_keys},
                     {"ruleTainted", v.counts.rule_tainted},
                     {"taintRules", v.counts.taint_rules},
                     {"detail", v.detail}});
  }
  nlohmann::json out = {{"pod", e.pod},
                        {"phase", e.phase},
                        {"nodeName", e.node_name},
                        {"scheduled", e.scheduled()},
                        {"schedulable", e.schedulable()},
                        {"draResources", e.dra_resources},
                        {"requests", requests},
                        {"requestMappings", mappings},
                        {"notes", e.notes},
                        {"summary", e.summary},
                        {"fittingNodes", e.fitting_nodes},
                        {"nodes", nodes},
                        {"schedulerMessage", e.scheduler_message},
                        {"claimName", e.claim_name},
                        {"devices", e.devices},
                        {"problems", e.problems},
                        {"terminating", e.terminating()},
                        {"termination", e.termination}};
  return out.dump(2) + "\n";
}

}  // namespace dra::report
