// Full-size fleet replay: the real `dra-controller run` binary syncs a
// generated fleet that the scripted server (tests/support/ScriptedHttpServer)
// serves as paged LISTs and WATCH streams, in place of kube-apiserver:
//   5,000 Nodes; per node a gpu.example.com pool of 8 GPUs (every 25th pool
//   incomplete: resourceSliceCount 2, one slice), a nic.example.com pool of 2
//   NICs and, on every 4th node, a partitionable mig.example.com pool (a
//   counter slice and three partitions consuming it); 3 DeviceClasses (gpu and
//   nic name extended resources); 150,000 Pods bound to nodes in 50
//   namespaces, 30,000 of them asking for example.com/gpu with the implicit
//   ResourceClaim the scheduler would have made (allocated, reserved); 250
//   DeviceHealth objects.
// Reported (stdout and counters): time to /readyz (every cache synced), RSS at
// sync, peak and steady, RSS growth over the same process on an empty fleet
// per cached object, /metrics scrape time, a Pod watch burst (ADDED then
// DELETED Pods, events/s and controller CPU per event), DeviceHealth flips ->
// DeviceTaintRule apply request p99, work-queue p99 and CPU at idle; then
// client-go's informer-compare syncs the same replay, and the ratios are
// printed. FLEET_NODES, FLEET_GPU_PODS, FLEET_PLAIN_PODS, FLEET_HEALTHS,
// FLEET_BURST_PODS, FLEET_IDLE_SECONDS change the sizes (`make bench-fleet`;
// README "Fleet results").
#include <benchmark/benchmark.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/http/HttpTransport.h"
#include "tests/support/BackgroundProcess.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"
#include "tests/support/WaitFor.h"

namespace {

using namespace std::chrono_literals;
using dra::testing::BackgroundProcess;
using dra::testing::Gate;
using dra::testing::RecordedRequest;
using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using dra::testing::StreamStep;
using Clock = std::chrono::steady_clock;

constexpr int kPageSize = 500;
constexpr int kNamespaces = 50;
constexpr const char* kListRv = "100000";
constexpr auto kHold = std::chrono::milliseconds(30 * 60 * 1000);

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atoi(value) : fallback;
}

struct Sizes {
  int nodes = EnvInt("FLEET_NODES", 5000);
  int gpu_pods = EnvInt("FLEET_GPU_PODS", 30000);
  int plain_pods = EnvInt("FLEET_PLAIN_PODS", 120000);
  int healths = EnvInt("FLEET_HEALTHS", 250);
  int burst_pods = EnvInt("FLEET_BURST_PODS", 20000);
  int idle_seconds = EnvInt("FLEET_IDLE_SECONDS", 60);
  int incomplete_every = 25;
  int mig_every = 4;

  static Sizes Empty() {
    Sizes s;
    s.nodes = s.gpu_pods = s.plain_pods = s.healths = s.burst_pods = 0;
    return s;
  }
};

// ---- Objects ---------------------------------------------------------------

std::string Fmt(const char* format, int n) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, n);
  return buffer;
}
std::string NodeName(int n) { return Fmt("fleet-node-%05d", n); }
std::string Uid(int kind, int n) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%08d-0000-4000-8000-%012d", kind, n);
  return buffer;
}
std::string Meta(const std::string& name, const std::string& ns, const std::string& uid, int rv) {
  return R"("metadata":{"name":")" + name + "\"" +
         (ns.empty() ? "" : R"(,"namespace":")" + ns + "\"") + R"(,"uid":")" + uid +
         R"(","resourceVersion":")" + std::to_string(rv) +
         R"(","creationTimestamp":"2026-12-01T00:00:00Z")";
}

std::string NodeJson(int n) {
  return R"({"apiVersion":"v1","kind":"Node",)" + Meta(NodeName(n), "", Uid(1, n), 10 + n) +
         R"(,"labels":{"kubernetes.io/hostname":")" + NodeName(n) +
         R"("}},"status":{"capacity":{"cpu":"64","memory":"512Gi","pods":"110"},)"
         R"("allocatable":{"cpu":"64","memory":"512Gi","pods":"110"},"conditions":[{"type":)"
         R"("Ready","status":"True","reason":"KubeletReady","lastHeartbeatTime":)"
         R"("2026-12-01T00:00:00Z","lastTransitionTime":"2026-12-01T00:00:00Z"}]}})";
}

std::string SliceHead(const std::string& name, const std::string& driver, int n, int count,
                      int uid) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",)" +
         Meta(name, "", Uid(2, uid), 20000 + uid) + R"(},"spec":{"driver":")" + driver +
         R"(","nodeName":")" + NodeName(n) + R"(","pool":{"name":")" + NodeName(n) +
         R"(","generation":1,"resourceSliceCount":)" + std::to_string(count) + "},";
}

void AppendSlices(const Sizes& s, int n, std::vector<std::string>& out) {
  bool incomplete = n % s.incomplete_every == s.incomplete_every - 1;
  std::string gpu =
      SliceHead(NodeName(n) + "-gpu", "gpu.example.com", n, incomplete ? 2 : 1, 4 * n) +
      R"("devices":[)";
  for (int d = 0; d < 8; ++d) {
    gpu += (d ? "," : "") + std::string(R"({"name":"gpu-)") + std::to_string(d) +
           R"(","attributes":{"type":{"string":"gpu"},"model":{"string":"gpu-80g"},"index":)"
           R"({"int":)" +
           std::to_string(d) + R"(},"uuid":{"string":"GPU-)" + std::to_string(n) + "-" +
           std::to_string(d) +
           R"("},"driverVersion":{"version":"1.0.0"}},"capacity":{"memory":{"value":"80Gi"}}})";
  }
  out.push_back(gpu + "]}}");
  out.push_back(SliceHead(NodeName(n) + "-nic", "nic.example.com", n, 1, 4 * n + 1) +
                R"("devices":[{"name":"nic-0","attributes":{"type":{"string":"nic"}}},)"
                R"({"name":"nic-1","attributes":{"type":{"string":"nic"}}}]}})");
  if (n % s.mig_every != 0) return;
  out.push_back(SliceHead(NodeName(n) + "-mig-counters", "mig.example.com", n, 2, 4 * n + 2) +
                R"("sharedCounters":[{"name":"gpu-0-counters","counters":{"memory":)"
                R"({"value":"80Gi"}}}]}})");
  std::string mig = SliceHead(NodeName(n) + "-mig-devices", "mig.example.com", n, 2, 4 * n + 3) +
                    R"("devices":[)";
  const char* parts[] = {"mig-full", "mig-half-0", "mig-half-1"};
  for (int p = 0; p < 3; ++p) {
    mig += (p ? "," : "") + std::string(R"({"name":")") + parts[p] +
           R"(","consumesCounters":[{"counterSet":"gpu-0-counters","counters":{"memory":)"
           R"({"value":")" +
           (p == 0 ? "80Gi" : "40Gi") + R"("}}}]})";
  }
  out.push_back(mig + "]}}");
}

std::string ClassJson(const std::string& kind, bool extended) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",)" +
         Meta(kind + ".example.com", "", Uid(3, kind[0]), 30) + R"(},"spec":{)" +
         (extended ? R"("extendedResourceName":"example.com/)" + kind + "\"," : "") +
         R"("selectors":[{"cel":{"expression":"device.driver == \")" + kind +
         R"(.example.com\""}}]}})";
}

// A Pod as the API server lists it; `gpu_claim` names its implicit claim.
std::string PodJson(const std::string& name, const std::string& ns, const std::string& uid, int rv,
                    const std::string& node, const std::string& gpu_claim, bool gpu) {
  std::string resources =
      gpu ? R"({"limits":{"example.com/gpu":"1"},"requests":{"example.com/gpu":"1"}})"
          : R"({"requests":{"cpu":"10m"}})";
  std::string pod = R"({"apiVersion":"v1","kind":"Pod",)" + Meta(name, ns, uid, rv) +
                    R"(,"labels":{"app":")" + name.substr(0, name.size() - 2) + R"("}},"spec":{)" +
                    (node.empty() ? "" : R"("nodeName":")" + node + "\",") +
                    R"("schedulerName":"default-scheduler","serviceAccountName":"default",)"
                    R"("terminationGracePeriodSeconds":30,"containers":[{"name":"main","image":)"
                    R"("registry.example.com/cuda-app:1.0","resources":)" +
                    resources +
                    R"(,"volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/)"
                    R"(serviceaccount","name":"kube-api-access","readOnly":true}]}],)"
                    R"("tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready",)"
                    R"("operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":)"
                    R"("node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":)"
                    R"(300}],"volumes":[{"name":"kube-api-access","projected":{"sources":[)"
                    R"({"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},)"
                    R"({"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":)"
                    R"("ca.crt"}]}}]}}]},"status":)";
  if (node.empty()) return pod + R"({"phase":"Pending"}})";
  pod += R"({"phase":"Running","podIP":"10.1.0.1","conditions":[{"type":"PodScheduled",)"
         R"("status":"True","lastTransitionTime":"2026-12-01T00:00:00Z"},{"type":"Ready",)"
         R"("status":"True","lastTransitionTime":"2026-12-01T00:00:00Z"}])";
  if (!gpu_claim.empty()) {
    pod += R"(,"extendedResourceClaimStatus":{"requestMappings":[{"containerName":"main",)"
           R"("requestName":"container-0-request-0","resourceName":"example.com/gpu"}],)"
           R"("resourceClaimName":")" +
           gpu_claim + "\"}";
  }
  return pod + "}}";
}

std::string ClaimJson(const std::string& name, const std::string& ns, const std::string& pod,
                      const std::string& pod_uid, int n, const std::string& node, int device) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",)" +
         Meta(name, ns, Uid(5, n), 60000 + n) +
         R"(,"annotations":{"resource.kubernetes.io/extended-resource-claim":"true"},)"
         R"("finalizers":["resource.kubernetes.io/delete-protection"],"ownerReferences":[)"
         R"({"apiVersion":"v1","controller":true,"kind":"Pod","name":")" +
         pod + R"(","uid":")" + pod_uid +
         R"("}]},"spec":{"devices":{"requests":[{"name":"container-0-request-0","exactly":)"
         R"({"allocationMode":"ExactCount","count":1,"deviceClassName":"gpu.example.com"}}]}},)"
         R"("status":{"allocation":{"devices":{"results":[{"device":"gpu-)" +
         std::to_string(device) + R"(","driver":"gpu.example.com","pool":")" + node +
         R"(","request":"container-0-request-0"}]},"nodeSelector":{"nodeSelectorTerms":[)"
         R"({"matchFields":[{"key":"metadata.name","operator":"In","values":[")" +
         node + R"("]}]}]}},"reservedFor":[{"name":")" + pod + R"(","resource":"pods","uid":")" +
         pod_uid + "\"}]}}";
}

std::string HealthJson(int h, int nodes, int generation, int rv, const std::string& state) {
  return R"({"apiVersion":"dra-controller.dev/v1alpha1","kind":"DeviceHealth",)" +
         Meta(Fmt("fleet-health-%05d", h), "", Uid(6, h), rv) + R"(,"generation":)" +
         std::to_string(generation) + R"(},"spec":{"driver":"gpu.example.com","pool":")" +
         NodeName(h * (nodes / 250) % nodes) + R"(","device":"gpu-7","state":")" + state +
         R"(","reason":"FleetBench"}})";
}

struct Fleet {
  std::map<std::string, std::vector<std::string>> items;  // collection path -> objects
  size_t objects = 0;
};

void AddPods(const Sizes& s, Fleet& fleet) {
  auto& pods = fleet.items["/api/v1/pods"];
  auto& claims = fleet.items["/apis/resource.k8s.io/v1/resourceclaims"];
  std::vector<int> complete;
  for (int n = 0; n < s.nodes; ++n) {
    if (n % s.incomplete_every != s.incomplete_every - 1) complete.push_back(n);
  }
  for (int i = 0; i < s.gpu_pods && !complete.empty(); ++i) {
    int node = complete[i % complete.size()];
    int device = i / static_cast<int>(complete.size()) % 8;
    std::string name = Fmt("gpu-%06d", i), ns = Fmt("team-%02d", i % kNamespaces);
    std::string claim = name + "-extended-resources-x", uid = Uid(4, i);
    pods.push_back(PodJson(name, ns, uid, 40000 + i, NodeName(node), claim, true));
    claims.push_back(ClaimJson(claim, ns, name, uid, i, NodeName(node), device));
  }
  for (int i = 0; i < s.plain_pods && s.nodes > 0; ++i) {
    std::string name = Fmt("cpu-%06d", i);
    pods.push_back(PodJson(name, Fmt("team-%02d", i % kNamespaces), Uid(7, i), 200000 + i,
                           NodeName(i % s.nodes), "", false));
  }
}

Fleet MakeFleet(const Sizes& s) {
  Fleet fleet;
  for (const char* path :
       {"/api/v1/nodes", "/api/v1/pods", "/apis/resource.k8s.io/v1/deviceclasses",
        "/apis/resource.k8s.io/v1/resourceslices", "/apis/resource.k8s.io/v1/resourceclaims",
        "/apis/resource.k8s.io/v1/devicetaintrules",
        "/apis/dra-controller.dev/v1alpha1/devicehealths"}) {
    fleet.items[path];
  }
  auto& classes = fleet.items["/apis/resource.k8s.io/v1/deviceclasses"];
  classes = {ClassJson("gpu", true), ClassJson("nic", true), ClassJson("mig", false)};
  for (int n = 0; n < s.nodes; ++n) {
    fleet.items["/api/v1/nodes"].push_back(NodeJson(n));
    AppendSlices(s, n, fleet.items["/apis/resource.k8s.io/v1/resourceslices"]);
  }
  AddPods(s, fleet);
  for (int h = 0; h < s.healths; ++h) {
    fleet.items["/apis/dra-controller.dev/v1alpha1/devicehealths"].push_back(
        HealthJson(h, s.nodes, 1, 70000 + h, "Unknown"));
  }
  for (const auto& [path, list] : fleet.items) fleet.objects += list.size();
  return fleet;
}

// ---- Server ----------------------------------------------------------------

// The list kind and apiVersion kube-apiserver sends for a collection path,
// e.g. /apis/resource.k8s.io/v1/resourceslices: ResourceSliceList.
std::string ListHead(const std::string& path) {
  static const std::map<std::string, std::string> kKinds = {
      {"nodes", "NodeList"},
      {"pods", "PodList"},
      {"deviceclasses", "DeviceClassList"},
      {"resourceslices", "ResourceSliceList"},
      {"resourceclaims", "ResourceClaimList"},
      {"devicetaintrules", "DeviceTaintRuleList"},
      {"devicehealths", "DeviceHealthList"}};
  auto slash = path.rfind('/');
  std::string group_version = path.substr(path.find('/', 1) + 1, slash - path.find('/', 1) - 1);
  auto kind = kKinds.find(path.substr(slash + 1));
  return R"({"kind":")" + (kind == kKinds.end() ? "List" : kind->second) + R"(","apiVersion":")" +
         group_version + "\",";
}

std::string Page(const std::string& path, const std::vector<std::string>& items, size_t from,
                 const std::string& next) {
  std::string body = ListHead(path) + R"("metadata":{"resourceVersion":")" + std::string(kListRv) +
                     "\"" + (next.empty() ? "" : R"(,"continue":")" + next + "\"") +
                     R"(},"items":[)";
  for (size_t i = from; i < std::min(items.size(), from + kPageSize); ++i) {
    if (i > from) body += ",";
    body += items[i];
  }
  return body + "]}";
}

bool IsWatch(const RecordedRequest& r) { return r.QueryParam("watch") == "true"; }

void AddListRoutes(ScriptedHttpServer& server, const std::string& path,
                   const std::vector<std::string>& items) {
  for (size_t from = 0, page = 0; from < items.size() || from == 0; from += kPageSize, ++page) {
    std::string token = page == 0 ? "" : "p" + std::to_string(page);
    std::string next = from + kPageSize < items.size() ? "p" + std::to_string(page + 1) : "";
    server.AddRoute(Route::Where("GET",
                                 [path, token](const RecordedRequest& r) {
                                   return r.Path() == path && !IsWatch(r) &&
                                          r.QueryParam("continue").value_or("") == token;
                                 }),
                    {ScriptedResponse::Json(200, Page(path, items, from, next))});
    if (items.empty()) break;
  }
}

std::string Discovery(const std::string& group_version, std::vector<std::string> resources) {
  std::string body =
      R"({"kind":"APIResourceList","groupVersion":")" + group_version + R"(","resources":[)";
  for (size_t i = 0; i < resources.size(); ++i) {
    body += (i ? "," : "") + std::string(R"({"name":")") + resources[i] +
            R"(","namespaced":false,"kind":"X","verbs":["get","list","watch"]})";
  }
  return body + "]}";
}

// Times the server wrote the steps that follow each Mark() (a WaitFor that
// records the moment it is reached and holds at once).
class Marks {
 public:
  StreamStep Mark(const std::string& key) {
    return StreamStep::WaitFor([this, key] {
      std::lock_guard lock(mu_);
      at_.emplace(key, Clock::now());
      return true;
    });
  }
  std::optional<Clock::time_point> At(const std::string& key) {
    std::lock_guard lock(mu_);
    auto it = at_.find(key);
    return it == at_.end() ? std::nullopt : std::optional(it->second);
  }

 private:
  std::mutex mu_;
  std::map<std::string, Clock::time_point> at_;
};

constexpr const char* kPods = "/api/v1/pods";
constexpr const char* kHealths = "/apis/dra-controller.dev/v1alpha1/devicehealths";

// A batch of watch events served to the next watch of `path` once the bench
// asks for it (`wanted`). The watch held before that ends so the reflector
// comes back for it: it survives the watches the client restarts on its own.
struct Burst {
  explicit Burst(std::string p) : path(std::move(p)) {}
  std::string path;
  std::atomic<bool> wanted{false};
};

struct Replay {
  std::unique_ptr<ScriptedHttpServer> server;
  Gate stop;
  Marks marks;
  std::atomic<int> unmatched{0};
  Burst pod_add{kPods}, pod_delete{kPods}, flips{kHealths};
  std::vector<Burst*> Bursts() { return {&pod_add, &pod_delete, &flips}; }
};

std::string BurstPod(int i, int rv) {
  return PodJson(Fmt("burst-%06d", i), "burst", Uid(8, i), rv, "", "", true);
}

// ADDED (or DELETED) for every burst Pod, 100 events a chunk.
std::vector<StreamStep> PodEvents(const Sizes& s, const char* type, int rv) {
  std::vector<StreamStep> steps;
  std::string chunk;
  for (int i = 0; i < s.burst_pods; ++i) {
    chunk += dra::testing::WatchEvent(type, BurstPod(i, ++rv));
    if (i % 100 == 99 || i + 1 == s.burst_pods) {
      steps.push_back(StreamStep::Chunk(std::move(chunk)));
      chunk.clear();
    }
  }
  return steps;
}

// Every DeviceHealth goes Degraded, then back to Unknown, one event every
// 10 ms, each marked when written.
std::vector<StreamStep> HealthFlips(const Sizes& s, Replay& replay) {
  std::vector<StreamStep> steps;
  int rv = 600000;
  for (int round = 0; round < 2; ++round) {
    const char* state = round == 0 ? "Degraded" : "Unknown";
    for (int h = 0; h < s.healths; ++h) {
      steps.push_back(replay.marks.Mark("flip-" + std::to_string(round) + "-" + std::to_string(h)));
      steps.push_back(StreamStep::Chunk(
          dra::testing::WatchEvent("MODIFIED", HealthJson(h, s.nodes, 2 + round, ++rv, state))));
      steps.push_back(StreamStep::Pause(10ms));
    }
  }
  return steps;
}

// The burst's stream: marked "<name>-start" (the request is no longer
// wanted), the events, marked "<name>-written", then the watch ends.
void AddBurstRoute(ScriptedHttpServer& server, Replay& replay, Burst& burst,
                   const std::string& name, std::vector<StreamStep> events) {
  std::vector<StreamStep> steps = {StreamStep::WaitFor([&burst] {
                                     burst.wanted = false;
                                     return true;
                                   }),
                                   replay.marks.Mark(name + "-start")};
  for (auto& step : events) steps.push_back(std::move(step));
  steps.push_back(replay.marks.Mark(name + "-written"));
  steps.push_back(StreamStep::End());
  server.AddRoute(Route::Where("GET",
                               [&burst](const RecordedRequest& r) {
                                 return burst.wanted && r.Path() == burst.path && IsWatch(r);
                               })
                      .Once(),
                  {ScriptedResponse::Streamed(std::move(steps))});
}

// Each connection has its own serving thread: when its current hold began.
Clock::time_point& HoldStart() {
  thread_local Clock::time_point start;
  return start;
}

// A watch with nothing to say ends after 170 s, before the client's 180 s
// idle limit, as a real one ends at its timeout; for a path with bursts also
// as soon as one is wanted. Only those poll (every millisecond).
std::vector<StreamStep> Hold(Replay& replay, const std::string& path) {
  std::vector<Burst*> mine;
  for (Burst* burst : replay.Bursts()) {
    if (burst->path == path) mine.push_back(burst);
  }
  if (mine.empty()) {
    return {StreamStep::Pause(60s), StreamStep::Pause(60s), StreamStep::Pause(50s),
            StreamStep::End()};
  }
  Gate stop = replay.stop;
  return {StreamStep::WaitFor([] {
            HoldStart() = Clock::now();
            return true;
          }),
          StreamStep::WaitFor(
              [mine, stop] {
                bool wanted = std::any_of(mine.begin(), mine.end(),
                                          [](const Burst* b) { return b->wanted.load(); });
                return wanted || stop.IsOpen() || Clock::now() - HoldStart() > 170s;
              },
              175s),
          StreamStep::End()};
}

void AddWatchRoutes(ScriptedHttpServer& server, const Sizes& s, Replay& replay,
                    const Fleet& fleet) {
  AddBurstRoute(server, replay, replay.pod_add, "ADDED", PodEvents(s, "ADDED", 500000));
  AddBurstRoute(server, replay, replay.pod_delete, "DELETED",
                PodEvents(s, "DELETED", 500000 + s.burst_pods));
  AddBurstRoute(server, replay, replay.flips, "flips", HealthFlips(s, replay));
  for (const auto& entry : fleet.items) {
    std::string path = entry.first;
    server.AddRoute(
        Route::Where("GET",
                     [path](const RecordedRequest& r) { return r.Path() == path && IsWatch(r); }),
        {ScriptedResponse::Streamed(Hold(replay, path))});
  }
}

// Writes (rules, status, Events) succeed with a small object; the fleet does
// not change because of them, as if another writer's view lagged.
void AddWriteRoutes(ScriptedHttpServer& server) {
  std::string ok =
      R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"x","namespace":"default",)"
      R"("resourceVersion":"1","uid":"00000000-0000-4000-8000-000000000000"}})";
  for (const char* method : {"POST", "PATCH", "PUT", "DELETE"}) {
    server.AddRoute(Route::Prefix(method, "/"), {ScriptedResponse::Json(200, ok)});
  }
}

std::unique_ptr<Replay> StartReplay(const Sizes& s, const Fleet& fleet) {
  auto replay = std::make_unique<Replay>();
  auto server = ScriptedHttpServer::Start();
  if (!server.ok()) return nullptr;
  replay->server = std::move(*server);
  auto& srv = *replay->server;
  srv.AddRoute(
      Route::Exact("GET", "/version"),
      {ScriptedResponse::Json(200, R"({"major":"1","minor":"37","gitVersion":"v1.37.2"})")});
  srv.AddRoute(Route::Exact("GET", "/apis/resource.k8s.io/v1"),
               {ScriptedResponse::Json(
                   200, Discovery("resource.k8s.io/v1", {"deviceclasses", "resourceslices",
                                                         "resourceclaims", "devicetaintrules"}))});
  srv.AddRoute(Route::Exact("GET", "/apis/dra-controller.dev/v1alpha1"),
               {ScriptedResponse::Json(200, Discovery("dra-controller.dev/v1alpha1",
                                                      {"devicehealths", "devicehealths/status"}))});
  AddWriteRoutes(srv);
  AddWatchRoutes(srv, s, *replay, fleet);
  for (const auto& [path, items] : fleet.items) AddListRoutes(srv, path, items);
  Replay* counted = replay.get();  // last: counts what no route answers (a 404)
  srv.AddRoute(Route::Where("",
                            [counted](const RecordedRequest&) {
                              ++counted->unmatched;
                              return false;
                            }),
               {});
  return replay;
}

// ---- The controller process ------------------------------------------------

int64_t StatusKib(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return -1;
}

double CpuSeconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  auto close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(text.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

kube::Result<kube::HttpResponse> Get(int port, const std::string& path) {
  kube::RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  config.request_timeout = 30s;
  auto transport = kube::HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  kube::HttpRequest request;
  request.path = path;
  return (*transport)->Send(request);
}

int PortFromLog(const std::string& log, const std::string& what) {
  std::smatch match;
  std::regex pattern("serving " + what + " on \\S+ .* port=(\\d+)");
  return std::regex_search(log, match, pattern) ? std::stoi(match[1]) : 0;
}

// Bench programs get no build paths: the controller is next to tests/.
std::string BuildDir() {
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "build" : exe.parent_path().parent_path().string();
}

struct Controller {
  std::unique_ptr<BackgroundProcess> process;
  dra::testing::TempDir dir;
  int probe_port = 0;
  int metrics_port = 0;
  double sync_seconds = 0;
  double sync_cpu_seconds = 0;
};

std::string WriteKubeconfig(const dra::testing::TempDir& dir, int server_port) {
  return dir.Write("kubeconfig",
                   "apiVersion: v1\nkind: Config\nclusters:\n- name: replay\n  cluster:\n"
                   "    server: http://127.0.0.1:" +
                       std::to_string(server_port) +
                       "\ncontexts:\n- name: replay\n  context:\n    cluster: replay\n"
                       "current-context: replay\n");
}

kube::Status StartController(int server_port, Controller& c) {
  std::string kubeconfig = WriteKubeconfig(c.dir, server_port);
  std::string binary = BuildDir() + "/dra-controller";
  auto start = Clock::now();
  auto process = BackgroundProcess::Start(
      {binary, "run", "--kubeconfig", kubeconfig, "--metrics-bind-address", "127.0.0.1:0",
       "--health-probe-bind-address", "127.0.0.1:0", "--watch-list", "off", "--health-preview", "0",
       "--health-hold-off", "0"});
  if (!process.ok()) return process.status();
  c.process = std::move(*process);
  auto ready = dra::testing::WaitFor("controller /readyz", 900s, [&] {
    std::string log = c.process->Output();
    if (c.probe_port == 0) c.probe_port = PortFromLog(log, "probes");
    if (c.metrics_port == 0) c.metrics_port = PortFromLog(log, "metrics");
    if (c.probe_port == 0 || !c.process->Running()) return !c.process->Running();
    auto reply = Get(c.probe_port, "/readyz");
    return reply.ok() && reply->status == 200;
  });
  if (!c.process->Running()) {
    return kube::Status(kube::StatusCode::kInternal, "controller exited: " + c.process->Output());
  }
  c.sync_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  c.sync_cpu_seconds = CpuSeconds(c.process->pid());
  return ready;
}

std::string Scrape(const Controller& c) {
  auto reply = Get(c.metrics_port, "/metrics");
  return reply.ok() ? reply->body : "";
}

// The bucket holding the p99 of each `name` label of a histogram: (lower,
// upper] bounds. client-go's buckets are a power of ten apart, so that is all a
// scrape can tell.
std::map<std::string, std::pair<double, double>> HistogramP99(const std::string& text,
                                                              const std::string& family) {
  std::map<std::string, std::vector<std::pair<double, double>>> buckets;
  std::regex line_re(family + R"re(_bucket\{(?:.*,)?name="([^"]*)"(?:.*,)?le="([^"]*)"\} (\S+))re");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(family + "_bucket{", 0) != 0) continue;
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    double le = m[2] == "+Inf" ? 1e300 : std::stod(m[2]);
    buckets[m[1]].emplace_back(le, std::stod(m[3]));
  }
  std::map<std::string, std::pair<double, double>> out;
  for (auto& [name, b] : buckets) {
    std::sort(b.begin(), b.end());
    double total = b.back().second, lower = 0;
    if (total == 0) continue;
    for (auto [le, count] : b) {
      if (count >= 0.99 * total) {
        out[name] = {lower, le};
        break;
      }
      lower = le;
    }
  }
  return out;
}

double Gauge(const std::string& text, const std::string& prefix) {
  double sum = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) sum += std::stod(line.substr(line.rfind(' ') + 1));
  }
  return sum;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// ---- Measurements ----------------------------------------------------------

constexpr const char* kPending =
    R"(dra_controller_extended_resource_pods_pending{extended_resource="example.com/gpu")";

// Asks for `burst`, waits until the pending gauge is `want`; seconds to it.
double BurstPhase(Controller& c, Burst& burst, double want, int& scrapes) {
  auto start = Clock::now();
  burst.wanted = true;
  // A scrape of this fleet is tens of MB: every 2 s, so that polling does not
  // take the controller's CPU from the burst.
  while (Clock::now() - start < 600s) {
    ++scrapes;
    if (Gauge(Scrape(c), kPending) == want) return Seconds(start, Clock::now());
    std::this_thread::sleep_for(2s);
  }
  return -1;  // never
}

void MeasureBurst(benchmark::State& state, const Sizes& s, Replay& replay, Controller& c,
                  double cpu_per_scrape) {
  double base = Gauge(Scrape(c), kPending);
  double cpu0 = CpuSeconds(c.process->pid());
  int scrapes = 0;
  double add_s = BurstPhase(c, replay.pod_add, base + s.burst_pods, scrapes);
  int64_t rss_added = StatusKib(c.process->pid(), "VmRSS");
  double del_s = BurstPhase(c, replay.pod_delete, base, scrapes);
  double cpu = CpuSeconds(c.process->pid()) - cpu0 - scrapes * cpu_per_scrape;
  if (add_s < 0 || del_s < 0)
    return state.SkipWithError("the pending gauge never followed the burst");
  auto written = [&](const std::string& name) {
    auto a = replay.marks.At(name + "-start"), b = replay.marks.At(name + "-written");
    return a && b ? Seconds(*a, *b) : 0.0;
  };
  double streamed = written("ADDED") + written("DELETED");
  double events = 2.0 * s.burst_pods;
  std::printf(
      "Pod burst: %d ADDED + %d DELETED; stream written in %.2f s (%.0f events/s, the "
      "controller reading as it goes); pending gauge followed after %.2f + %.2f s "
      "(%.0f events/s end to end, metrics render throttle included); controller CPU "
      "%.2f s without the bench's %d scrapes (%.0f events per CPU second); VmRSS with the burst "
      "Pods %lld KiB, after "
      "%lld KiB\n",
      s.burst_pods, s.burst_pods, streamed, events / std::max(streamed, 1e-9), add_s, del_s,
      events / (add_s + del_s), cpu, scrapes, events / std::max(cpu, 1e-9),
      static_cast<long long>(rss_added),
      static_cast<long long>(StatusKib(c.process->pid(), "VmRSS")));
  state.counters["burst_events_per_s_stream"] = events / std::max(streamed, 1e-9);
  state.counters["burst_events_per_s_end_to_end"] = events / (add_s + del_s);
  state.counters["burst_events_per_cpu_s"] = events / std::max(cpu, 1e-9);
}

void MeasureFlips(benchmark::State& state, const Sizes& s, Replay& replay) {
  replay.flips.wanted = true;
  std::string last = "flip-1-" + std::to_string(s.healths - 1);
  (void)dra::testing::WaitFor("flips written", 120s,
                              [&] { return replay.marks.At(last).has_value(); });
  std::this_thread::sleep_for(5s);  // the last flips' rules
  auto requests = replay.server->Requests();
  std::vector<double> millis;
  int missed = 0;
  for (int round = 0; round < 2; ++round) {
    std::string effect = round == 0 ? R"("effect":"NoSchedule")" : R"("effect":"None")";
    for (int h = 0; h < s.healths; ++h) {
      auto sent = replay.marks.At("flip-" + std::to_string(round) + "-" + std::to_string(h));
      std::string path =
          "/apis/resource.k8s.io/v1/devicetaintrules/devicehealth-" + Fmt("fleet-health-%05d", h);
      auto hit = std::find_if(requests.begin(), requests.end(), [&](const RecordedRequest& r) {
        return sent && r.method == "PATCH" && r.Path() == path && r.arrived_at >= *sent &&
               r.body.find(effect) != std::string::npos;
      });
      if (hit == requests.end()) {
        ++missed;
        continue;
      }
      millis.push_back(std::chrono::duration<double, std::milli>(hit->arrived_at - *sent).count());
    }
  }
  std::printf(
      "DeviceHealth flip -> DeviceTaintRule apply request: %zu flips (1 per 10 ms), "
      "p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d without a matching write\n",
      millis.size(), Percentile(millis, 0.5), Percentile(millis, 0.99), Percentile(millis, 1.0),
      missed);
  if (missed > 0) state.SkipWithError("DeviceHealth flips without a matching rule write");
  state.counters["health_to_rule_p99_ms"] = Percentile(millis, 0.99);
  state.counters["health_flips_missed"] = missed;
}

// Returns the controller's CPU seconds per scrape.
double MeasureScrapes(benchmark::State& state, Controller& c) {
  std::vector<double> millis;
  size_t bytes = 0;
  double cpu0 = CpuSeconds(c.process->pid());
  for (int i = 0; i < 10; ++i) {
    auto start = Clock::now();
    bytes = Scrape(c).size();
    millis.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  double per_scrape = (CpuSeconds(c.process->pid()) - cpu0) / 10;
  std::printf(
      "/metrics scrape: median %.1f ms, max %.1f ms, %zu bytes, %.0f ms controller CPU "
      "each\n",
      Percentile(millis, 0.5), Percentile(millis, 1.0), bytes, per_scrape * 1000);
  state.counters["scrape_ms_median"] = Percentile(millis, 0.5);
  return per_scrape;
}

void ReportQueues(benchmark::State& state, Controller& c) {
  std::string text = Scrape(c);
  for (const char* family :
       {"workqueue_queue_duration_seconds", "workqueue_work_duration_seconds"}) {
    for (auto [name, p99] : HistogramP99(text, family)) {
      std::printf("%s{name=\"%s\"} p99 in (%g, %g] s\n", family, name.c_str(), p99.first,
                  p99.second);
      if (std::string(family) == "workqueue_queue_duration_seconds") {
        state.counters["queue_p99_le_ms_" + name] = p99.second * 1000;
      }
    }
  }
}

struct Figures {
  double sync_s = 0;
  double sync_cpu_s = 0;
  int64_t rss_kib = 0;
};

// client-go v0.37.2 shared informers for the same resources
// (hack/control-plane/k8s/cmd/informer-compare, built by
// hack/bench/compare-client-go.sh) on the same replayed fleet, with paged
// LISTs like the controller here (WatchListClient off: the scripted server
// does not stream initial events). Skipped when the binary is not there.
void MeasureClientGo(benchmark::State& state, int server_port, const Figures& ours) {
  const char* cache = std::getenv("DRA_K8S_BIN_DIR");
  const char* home = std::getenv("HOME");
  std::string bin = cache != nullptr
                        ? std::string(cache) + "/informer-compare"
                        : std::string(home ? home : "/root") +
                              "/.cache/dra-controller/k8s-v1.37.2/bin/informer-compare";
  if (!std::filesystem::exists(bin)) {
    std::printf("client-go comparison skipped: no %s (run hack/bench/compare-client-go.sh once)\n",
                bin.c_str());
    return;
  }
  dra::testing::TempDir dir;
  auto start = Clock::now();
  auto process = BackgroundProcess::Start({"env", "KUBE_FEATURE_WatchListClient=false", bin,
                                           "--kubeconfig", WriteKubeconfig(dir, server_port)});
  if (!process.ok()) return state.SkipWithError(process.status().ToString().c_str());
  auto synced = dra::testing::WaitFor("informer-compare synced", 900s, [&] {
    return (*process)->Output().find("synced ") != std::string::npos || !(*process)->Running();
  });
  if (!synced.ok() || !(*process)->Running()) {
    std::printf("client-go did not sync: %s\n", (*process)->Output().c_str());
    return;
  }
  Figures go{Seconds(start, Clock::now()), CpuSeconds((*process)->pid()), 0};
  std::printf("informer-compare said: %s\n", (*process)->Output().substr(0, 2000).c_str());
  std::this_thread::sleep_for(15s);
  go.rss_kib = StatusKib((*process)->pid(), "VmRSS");
  std::printf(
      "client-go informer-compare: synced after %.2f s, CPU %.2f s, VmRSS %lld KiB after "
      "15 s, %lld threads\n",
      go.sync_s, go.sync_cpu_s, static_cast<long long>(go.rss_kib),
      static_cast<long long>(StatusKib((*process)->pid(), "Threads")));
  std::printf("dra-controller / client-go: RSS %.2fx, sync time %.2fx, CPU to sync %.2fx\n",
              static_cast<double>(ours.rss_kib) / static_cast<double>(go.rss_kib),
              ours.sync_s / go.sync_s, ours.sync_cpu_s / std::max(go.sync_cpu_s, 1e-9));
  state.counters["client_go_rss_ratio"] =
      static_cast<double>(ours.rss_kib) / static_cast<double>(go.rss_kib);
  state.counters["client_go_sync_ratio"] = ours.sync_s / go.sync_s;
  (*process)->Signal(SIGTERM);
  (*process)->Wait(30s);
}

// RSS of the controller on an empty fleet, settled: the per-object baseline.
int64_t EmptyRssKib() {
  Sizes empty = Sizes::Empty();
  auto replay = StartReplay(empty, MakeFleet(empty));
  Controller c;
  if (!replay || !StartController(replay->server->port(), c).ok()) return 0;
  std::this_thread::sleep_for(10s);
  int64_t rss = StatusKib(c.process->pid(), "VmRSS");
  replay->stop.Open();
  c.process->Signal(SIGTERM);
  c.process->Wait(30s);
  return rss;
}

void BM_FleetReplay(benchmark::State& state) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress as it happens
  Sizes s;
  int64_t empty_kib = EmptyRssKib();
  auto build_start = Clock::now();
  Fleet fleet = MakeFleet(s);
  auto replay = StartReplay(s, fleet);
  if (!replay) return state.SkipWithError("scripted server did not start");
  std::printf(
      "fleet: %zu objects (%zu pods, %zu claims, %zu slices, %zu nodes) generated in %.1f s; "
      "load %s",
      fleet.objects, fleet.items["/api/v1/pods"].size(),
      fleet.items["/apis/resource.k8s.io/v1/resourceclaims"].size(),
      fleet.items["/apis/resource.k8s.io/v1/resourceslices"].size(),
      fleet.items["/api/v1/nodes"].size(), Seconds(build_start, Clock::now()),
      [] {
        std::ifstream l("/proc/loadavg");
        std::string a;
        std::getline(l, a);
        return a + "\n";
      }()
          .c_str());
  fleet.items.clear();  // the server holds the pages
  for (auto _ : state) {
    Controller c;
    auto started = StartController(replay->server->port(), c);
    if (!started.ok()) return state.SkipWithError(started.ToString().c_str());
    pid_t pid = c.process->pid();
    int64_t rss_sync = StatusKib(pid, "VmRSS"), hwm_sync = StatusKib(pid, "VmHWM");
    std::this_thread::sleep_for(15s);
    int64_t rss = StatusKib(pid, "VmRSS");
    std::smatch synced;
    std::string log = c.process->Output();
    std::regex synced_re("\\d+ informer caches synced in \\d+ ms");
    std::printf("%s\n", std::regex_search(log, synced, synced_re) ? synced.str().c_str() : "");
    std::printf(
        "sync (exec -> /readyz): %.2f s, controller CPU %.2f s; RSS at sync %lld KiB (VmHWM %lld), "
        "steady (+15 s) "
        "%lld KiB; empty-fleet RSS %lld KiB; (steady - empty) / objects = %.0f bytes; "
        "%lld threads\n",
        c.sync_seconds, c.sync_cpu_seconds, static_cast<long long>(rss_sync),
        static_cast<long long>(hwm_sync), static_cast<long long>(rss),
        static_cast<long long>(empty_kib),
        (rss - empty_kib) * 1024.0 / static_cast<double>(fleet.objects),
        static_cast<long long>(StatusKib(pid, "Threads")));
    state.counters["sync_s"] = c.sync_seconds;
    state.counters["rss_steady_mib"] = static_cast<double>(rss) / 1024;
    state.counters["bytes_per_object"] =
        (rss - empty_kib) * 1024.0 / static_cast<double>(fleet.objects);
    double cpu_per_scrape = MeasureScrapes(state, c);
    std::string text = Scrape(c);
    std::printf(
        "pools: %.0f complete, %.0f incomplete; mig.example.com devices allocatable (per "
        "class): %.0f\n",
        Gauge(text, R"(dra_controller_pools{driver="mig.example.com",state="complete"})") +
            Gauge(text, R"(dra_controller_pools{driver="gpu.example.com",state="complete"})") +
            Gauge(text, R"(dra_controller_pools{driver="nic.example.com",state="complete"})"),
        Gauge(text, R"(dra_controller_pools{driver="gpu.example.com",state="incomplete"})"),
        Gauge(text, R"(dra_controller_devices_allocatable{driver="mig.example.com")"));
    MeasureBurst(state, s, *replay, c, cpu_per_scrape);
    MeasureFlips(state, s, *replay);
    ReportQueues(state, c);
    std::printf("peak VmHWM %lld KiB\n", static_cast<long long>(StatusKib(pid, "VmHWM")));
    state.counters["rss_peak_mib"] = static_cast<double>(StatusKib(pid, "VmHWM")) / 1024;
    std::this_thread::sleep_for(5s);
    double cpu0 = CpuSeconds(pid);
    std::this_thread::sleep_for(std::chrono::seconds(s.idle_seconds));
    double idle = CpuSeconds(pid) - cpu0;
    std::printf(
        "CPU at idle: %.2f s over %d s (%.2f millicores); VmRSS then %lld KiB; "
        "unmatched requests %d; script errors %zu\n",
        idle, s.idle_seconds, idle / s.idle_seconds * 1000,
        static_cast<long long>(StatusKib(pid, "VmRSS")), replay->unmatched.load(),
        replay->server->ScriptErrors().size());
    state.counters["idle_millicores"] = idle / s.idle_seconds * 1000;
    c.process->Signal(SIGTERM);
    c.process->Wait(30s);
    MeasureClientGo(state, replay->server->port(), {c.sync_seconds, c.sync_cpu_seconds, rss});
    replay->stop.Open();
  }
}

BENCHMARK(BM_FleetReplay)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
