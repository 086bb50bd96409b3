#include "controller/health/HealthFlags.h"

#include <charconv>

#include "src/base/Duration.h"

namespace dra::health {
namespace {

kube::Status Usage(std::string message) {
  return kube::Status(kube::StatusCode::kInvalidArgument, std::move(message));
}

kube::Status ParseSeconds(const cli::FlagSet& flags, const char* flag, std::chrono::seconds& out) {
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

}  // namespace

void HealthFlags::Declare(cli::FlagSet& flags) {
  flags.Bool("health-dry-run", false,
             "Device health: write no DeviceTaintRules; DeviceHealth status, Events and metrics "
             "say what would have been done");
  flags.String("health-preview", "30s",
               "Device health: an Unhealthy device is first tainted with effect None for this "
               "long, so status shows what would be evicted (0 disables)");
  flags.String("health-hold-off", "5m",
               "Device health: a taint stays this long after the state returns to Healthy; a "
               "device that goes bad again meanwhile keeps it (0 disables)");
  flags.String("health-storm-guard-percent", "25",
               "Device health: at most this percentage of a pool's devices, and of a driver's "
               "devices cluster-wide, under NoExecute at once (at least one device; 0 allows "
               "none); the rest get NoSchedule until room frees up");
}

kube::Result<HealthOptions> HealthFlags::Parse(const cli::FlagSet& flags) {
  HealthOptions options;
  options.dry_run = flags.GetBool("health-dry-run");
  KUBE_RETURN_IF_ERROR(ParseSeconds(flags, "health-preview", options.preview));
  KUBE_RETURN_IF_ERROR(ParseSeconds(flags, "health-hold-off", options.hold_off));
  std::string percent = flags.Get("health-storm-guard-percent");
  int value = -1;
  auto [end, error] = std::from_chars(percent.data(), percent.data() + percent.size(), value);
  if (error != std::errc() || end != percent.data() + percent.size() || value < 0 || value > 100) {
    return Usage("--health-storm-guard-percent \"" + percent + "\": want an integer in 0..100");
  }
  options.storm_share = value / 100.0;
  return options;
}

}  // namespace dra::health
