#include "tests/bench/fleet/FleetObjects.h"

#include <cstdio>

namespace dra::bench {

std::string FleetObjects::Fmt(const char* format, int n) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, n);
  return buffer;
}
std::string FleetObjects::NodeName(int n) { return Fmt("fleet-node-%05d", n); }
std::string FleetObjects::Uid(int kind, int n) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%08d-0000-4000-8000-%012d", kind, n);
  return buffer;
}
std::string FleetObjects::Meta(const std::string& name, const std::string& ns,
                               const std::string& uid, int rv) {
  return R"("metadata":{"name":")" + name + "\"" +
         (ns.empty() ? "" : R"(,"namespace":")" + ns + "\"") + R"(,"uid":")" + uid +
         R"(","resourceVersion":")" + std::to_string(rv) +
         R"(","creationTimestamp":"2026-12-01T00:00:00Z")";
}

std::string FleetObjects::Node(int n) {
  return R"({"apiVersion":"v1","kind":"Node",)" + Meta(NodeName(n), "", Uid(1, n), 10 + n) +
         R"(,"labels":{"kubernetes.io/hostname":")" + NodeName(n) +
         R"("}},"status":{"capacity":{"cpu":"64","memory":"512Gi","pods":"110"},)"
         R"("allocatable":{"cpu":"64","memory":"512Gi","pods":"110"},"conditions":[{"type":)"
         R"("Ready","status":"True","reason":"KubeletReady","lastHeartbeatTime":)"
         R"("2026-12-01T00:00:00Z","lastTransitionTime":"2026-12-01T00:00:00Z"}]}})";
}

std::string FleetObjects::SliceHead(const std::string& name, const std::string& driver, int n,
                                    int count, int uid) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",)" +
         Meta(name, "", Uid(2, uid), 20000 + uid) + R"(},"spec":{"driver":")" + driver +
         R"(","nodeName":")" + NodeName(n) + R"(","pool":{"name":")" + NodeName(n) +
         R"(","generation":1,"resourceSliceCount":)" + std::to_string(count) + "},";
}

void FleetObjects::AppendSlices(const FleetSizes& s, int n, std::vector<std::string>& out) {
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

std::string FleetObjects::DeviceClass(const std::string& kind, bool extended) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",)" +
         Meta(kind + ".example.com", "", Uid(3, kind[0]), 30) + R"(},"spec":{)" +
         (extended ? R"("extendedResourceName":"example.com/)" + kind + "\"," : "") +
         R"("selectors":[{"cel":{"expression":"device.driver == \")" + kind +
         R"(.example.com\""}}]}})";
}

std::string FleetObjects::Pod(const std::string& name, const std::string& ns,
                              const std::string& uid, int rv, const std::string& node,
                              const std::string& gpu_claim, bool gpu) {
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

std::string FleetObjects::Claim(const std::string& name, const std::string& ns,
                                const std::string& pod, const std::string& pod_uid, int n,
                                const std::string& node, int device) {
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

std::string FleetObjects::Health(int h, int nodes, int generation, int rv,
                                 const std::string& state) {
  return R"({"apiVersion":"dra-controller.dev/v1alpha1","kind":"DeviceHealth",)" +
         Meta(Fmt("fleet-health-%05d", h), "", Uid(6, h), rv) + R"(,"generation":)" +
         std::to_string(generation) + R"(},"spec":{"driver":"gpu.example.com","pool":")" +
         NodeName(h * (nodes / 250) % nodes) + R"(","device":"gpu-7","state":")" + state +
         R"(","reason":"FleetBench"}})";
}

}  // namespace dra::bench
