#include "controller/health/HealthFlags.h"

#include <charconv>

#include "src/base/Duration.h"

namespace dra::health {
namespace {

kube::Status Usage(std::string message) {
  return kube::Status(kube::StatusCode::kInvalidArgument, std::move(message));
}

kube::Status ParseInt(const kube::FlagSet& flags, const char* flag, int low, int high, int& out) {
  std::string text = flags.Get(flag);
  int value = low - 1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    return Usage("--" + std::string(flag) + " \"" + text + "\": want an integer in " +
                 std::to_string(low) + ".." + std::to_string(high));
  }
  out = value;
  return kube::Status::Ok();
}

kube::Status ParseSeconds(const kube::FlagSet& flags, const char* flag, std::chrono::seconds& out) {
  std::string text = flags.Get(flag);
  if (text == "0") {
    out = std::chrono::seconds(0);
    return kube::Status::Ok();
  }
  auto parsed = kube::ParseDuration(text);
  if (!parsed.ok()) return Usage("--" + std::string(flag) + ": " + parsed.status().message());
  if (parsed->count() < 0) return Usage("--" + std::string(flag) + " must not be negative");
  out = std::chrono::duration_cast<std::chrono::seconds>(*parsed);
  return kube::Status::Ok();
}

kube::Status ParseSelfEviction(const kube::FlagSet& flags, HealthOptions::SelfEviction& out) {
  std::string text = flags.Get("health-extended-resource-evictions");
  using Mode = HealthOptions::SelfEviction;
  if (text == "auto")
    out = Mode::kAuto;
  else if (text == "on")
    out = Mode::kOn;
  else if (text == "off")
    out = Mode::kOff;
  else
    return Usage("--health-extended-resource-evictions \"" + text + "\": want auto, on or off");
  return kube::Status::Ok();
}

}  // namespace

void HealthFlags::Declare(kube::FlagSet& flags) {
  flags.Bool("health-dry-run", false,
             "Device health: write no DeviceTaintRules; DeviceHealth status, Events and metrics "
             "say what would have been done");
  flags.String("health-preview", "30s",
               "Device health: an Unhealthy device is tainted NoSchedule for this long before "
               "NoExecute, so status shows what would be evicted (0 disables)");
  flags.String("health-hold-off", "5m",
               "Device health: a taint stays this long after the state returns to Healthy; a "
               "device that goes bad again meanwhile keeps it (0 disables)");
  flags.String("health-storm-guard-percent", "25",
               "Device health: at most this percentage of a pool's devices, and of a driver's "
               "devices cluster-wide, under NoExecute at once (at least one device; 0 allows "
               "none); the rest get NoSchedule until room frees up");
  flags.String("device-uuid-attribute", "uuid",
               "The device attribute holding a GPU's UUID, matched by DeviceHealth spec.uuid and "
               "Alertmanager's UUID label: ATTRIBUTE, or a comma list with DRIVER=ATTRIBUTE "
               "entries for drivers that name it differently");
  flags.String("device-index-attribute", "index",
               "The device attribute holding a GPU's index on its node, matched by DeviceHealth "
               "spec.node + spec.index and Alertmanager's Hostname + gpu labels: ATTRIBUTE, or a "
               "comma list with DRIVER=ATTRIBUTE entries");
  flags.String("health-extended-resource-evictions", "auto",
               "Device health: evict the Pods of extended-resource claims on a device under our "
               "NoExecute rule, which kube-controller-manager before 1.37 leaves running: auto "
               "(where the cluster's version needs it), on, off");
  flags.String("health-workers", "4",
               "Device health: DeviceHealths reconciled at once (1..64); each reconcile waits on "
               "its rule and status writes");
}

kube::Result<HealthOptions> HealthFlags::Parse(const kube::FlagSet& flags) {
  HealthOptions options;
  options.dry_run = flags.GetBool("health-dry-run");
  KUBE_RETURN_IF_ERROR(ParseSeconds(flags, "health-preview", options.preview));
  KUBE_RETURN_IF_ERROR(ParseSeconds(flags, "health-hold-off", options.hold_off));
  int percent = 0;
  KUBE_RETURN_IF_ERROR(ParseInt(flags, "health-storm-guard-percent", 0, 100, percent));
  options.storm_share = percent / 100.0;
  KUBE_RETURN_IF_ERROR(ParseInt(flags, "health-workers", 1, 64, options.workers));
  KUBE_RETURN_IF_ERROR(ParseSelfEviction(flags, options.extended_resource_evictions));
  for (const char* flag : {"device-uuid-attribute", "device-index-attribute"}) {
    auto& names = options.attribute_names;
    std::string text = flags.Get(flag);
    kube::Status s = std::string_view(flag) == "device-uuid-attribute" ? names.SetUuid(text)
                                                                       : names.SetIndex(text);
    if (!s.ok()) return Usage("--" + std::string(flag) + " " + s.message());
  }
  return options;
}

}  // namespace dra::health
