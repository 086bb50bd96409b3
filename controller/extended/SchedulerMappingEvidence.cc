#include "controller/extended/SchedulerMappingEvidence.h"

#include <cctype>
#include <charconv>
#include <ctime>
#include <set>

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

std::string UtcText(int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
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
    out.push_back(
        {resource, served->second, pod.meta.Key(), refused, mapping.RefreshedAt(served->second)});
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

bool SchedulerMappingEvidence::RetryPending(const UnmappedResource& unmapped, int64_t now) {
  return unmapped.class_refreshed_at && now - *unmapped.class_refreshed_at >= 0 &&
         now - *unmapped.class_refreshed_at < kSchedulerRetryWithin.count();
}

std::string SchedulerMappingEvidence::Note(const UnmappedResource& unmapped, int64_t now) {
  if (!unmapped.class_refreshed_at) return Message(unmapped);
  std::string touched = "DeviceClass " + unmapped.device_class + " was touched at " +
                        UtcText(*unmapped.class_refreshed_at) + " (annotation " +
                        api::DeviceClass::kRefreshAnnotation + ")";
  if (!RetryPending(unmapped, now)) {
    return Message(unmapped) + " " + touched +
           ", and kube-scheduler has retried the Pod since, so the hazard is still there.";
  }
  return "kube-scheduler refused Pod " + unmapped.pod + " with \"Insufficient " +
         unmapped.resource + "\" on " + std::to_string(unmapped.refused_nodes) +
         " node(s) while it had no DeviceClass for " + unmapped.resource +
         " (the v1.37.2 order hazard). " + touched +
         ", so kube-scheduler maps it to that class again; the refusal can predate that. "
         "kube-scheduler retries an unschedulable Pod within its unschedulable flush period "
         "(podMaxInUnschedulablePodsDuration, 5 minutes, checked every 30 s): by " +
         UtcText(*unmapped.class_refreshed_at + kSchedulerRetryWithin.count()) + ".";
}

std::vector<MappingFinding> SchedulerMappingEvidence::Findings(
    const std::vector<std::shared_ptr<const api::PodView>>& pods,
    const ExtendedResourceMapping& mapping,
    const std::vector<std::shared_ptr<const api::NodeView>>& nodes, int64_t now) {
  std::vector<MappingFinding> out;
  std::set<std::string> keys;
  for (const auto& pod : pods) {
    if (!pod) continue;
    for (const auto& seen : FromPod(*pod, mapping, nodes)) {
      if (RetryPending(seen, now)) continue;
      auto finding = Finding(seen);
      if (keys.insert(finding.Key()).second) out.push_back(std::move(finding));
    }
  }
  return out;
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
