#pragma once

namespace dra::bench {

// The replayed fleet's sizes: FLEET_NODES (5,000), FLEET_GPU_PODS (30,000),
// FLEET_PLAIN_PODS (120,000), FLEET_HEALTHS (250), FLEET_BURST_PODS (20,000)
// and FLEET_IDLE_SECONDS (60) from the environment; FLEET_SETTLE_SECONDS (20)
// is the wait before the idle window, longer than the metrics render's
// back-off (ten times a render, 5-9 s at full size), so the render that
// follows the last DeviceHealth flip is not counted as idle CPU.
struct FleetSizes {
  int nodes = EnvInt("FLEET_NODES", 5000);
  int gpu_pods = EnvInt("FLEET_GPU_PODS", 30000);
  int plain_pods = EnvInt("FLEET_PLAIN_PODS", 120000);
  int healths = EnvInt("FLEET_HEALTHS", 250);
  int burst_pods = EnvInt("FLEET_BURST_PODS", 20000);
  int idle_seconds = EnvInt("FLEET_IDLE_SECONDS", 60);
  int settle_seconds = EnvInt("FLEET_SETTLE_SECONDS", 20);
  int incomplete_every = 25;
  int mig_every = 4;

  // No nodes, Pods, DeviceHealths or burst: the controller's baseline.
  static FleetSizes Empty();
  // The variable's value, or `fallback` when it is unset or empty.
  static int EnvInt(const char* name, int fallback);
};

}  // namespace dra::bench
