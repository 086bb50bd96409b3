#include "controller/extended/SchedulerMappingEvidence.h"

#include <cctype>
#include <charconv>

namespace dra::extended {
namespace {

constexpr std::string_view kInsufficient = " Insufficient ";

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The number that ends right before `end` in `text`, or -1.
int NumberBefore(std::string_view text, size_t end) {
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1]))) --begin;
  if (begin == end) return -1;
  int value = -1;
  auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + end, value);
  return ec == std::errc() ? value : -1;
}

// The resource name starting at `begin`: up to a comma, space or the end,
// without a sentence's final period (a resource name cannot end with one).
std::string_view NameAt(std::string_view text, size_t begin) {
  size_t end = begin;
  while (end < text.size() && text[end] != ',' && !IsSpace(text[end])) ++end;
  std::string_view name = text.substr(begin, end - begin);
  while (!name.empty() && name.back() == '.') name.remove_suffix(1);
  return name;
}

int PluginNodes(const std::vector<std::shared_ptr<const api::NodeView>>& nodes,
                std::string_view resource) {
  int count = 0;
  for (const auto& node : nodes) count += node && node->Allocatable(resource).Sign() > 0;
  return count;
}

}  // namespace

std::map<std::string, int> SchedulerMappingEvidence::InsufficientCounts(std::string_view message) {
  if (auto preemption = message.find("preemption:"); preemption != std::string_view::npos) {
    message = message.substr(0, preemption);
  }
  std::map<std::string, int> counts;
  for (size_t at = message.find(kInsufficient); at != std::string_view::npos;
       at = message.find(kInsufficient, at + 1)) {
    int n = NumberBefore(message, at);
    std::string_view name = NameAt(message, at + kInsufficient.size());
    if (n > 0 && !name.empty()) counts[std::string(name)] += n;
  }
  return counts;
}

std::vector<UnmappedResource> SchedulerMappingEvidence::FromPod(
    const api::PodView& pod, const ExtendedResourceMapping& mapping,
    const std::vector<std::shared_ptr<const api::NodeView>>& nodes) {
  std::vector<UnmappedResource> out;
  if (!pod.node_name.empty() || !pod.scheduled || pod.scheduled->status != "False") return out;
  for (const auto& [resource, refused] : InsufficientCounts(pod.scheduled->message)) {
    auto served = mapping.explicit_names().find(resource);
    if (served == mapping.explicit_names().end()) continue;
    if (refused <= PluginNodes(nodes, resource)) continue;  // device plugins can explain them
    out.push_back({resource, served->second, pod.meta.Key(), refused});
  }
  return out;
}

std::string SchedulerMappingEvidence::Message(const UnmappedResource& unmapped) {
  return "kube-scheduler has no DeviceClass for extended resource " + unmapped.resource +
         " although DeviceClass " + unmapped.device_class + " serves it: it refused Pod " +
         unmapped.pod + " with \"Insufficient " + unmapped.resource + "\" on " +
         std::to_string(unmapped.refused_nodes) +
         " node(s), more than serve it by device plugin. This is the v1.37.2 order hazard "
         "(kubernetes issue 141103): a class that won the name was deleted or stopped naming it. "
         "Fix: touch the class, e.g. kubectl annotate deviceclass " +
         unmapped.device_class + " dra-controller.dev/extended-resource-refresh=<now> --overwrite";
}

MappingFinding SchedulerMappingEvidence::Finding(const UnmappedResource& unmapped) {
  return MappingFinding{MappingFinding::Kind::kOrderHazard,
                        "DeviceClass",
                        unmapped.device_class,
                        unmapped.resource,
                        "",
                        Message(unmapped)};
}

}  // namespace dra::extended
