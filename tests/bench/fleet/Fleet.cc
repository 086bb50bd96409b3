#include "tests/bench/fleet/Fleet.h"

#include "tests/bench/fleet/FleetObjects.h"

namespace dra::bench {

void Fleet::AddPods(const FleetSizes& s) {
  auto& pods = items["/api/v1/pods"];
  auto& claims = items["/apis/resource.k8s.io/v1/resourceclaims"];
  std::vector<int> complete;
  for (int n = 0; n < s.nodes; ++n) {
    if (n % s.incomplete_every != s.incomplete_every - 1) complete.push_back(n);
  }
  for (int i = 0; i < s.gpu_pods && !complete.empty(); ++i) {
    int node = complete[i % complete.size()];
    int device = i / static_cast<int>(complete.size()) % 8;
    std::string name = FleetObjects::Fmt("gpu-%06d", i),
                ns = FleetObjects::Fmt("team-%02d", i % kNamespaces);
    std::string claim = name + "-extended-resources-x", uid = FleetObjects::Uid(4, i);
    pods.push_back(
        FleetObjects::Pod(name, ns, uid, 40000 + i, FleetObjects::NodeName(node), claim, true));
    claims.push_back(
        FleetObjects::Claim(claim, ns, name, uid, i, FleetObjects::NodeName(node), device));
  }
  for (int i = 0; i < s.plain_pods && s.nodes > 0; ++i) {
    std::string name = FleetObjects::Fmt("cpu-%06d", i);
    pods.push_back(FleetObjects::Pod(name, FleetObjects::Fmt("team-%02d", i % kNamespaces),
                                     FleetObjects::Uid(7, i), 200000 + i,
                                     FleetObjects::NodeName(i % s.nodes), "", false));
  }
}

Fleet Fleet::Make(const FleetSizes& s) {
  Fleet fleet;
  for (const char* path :
       {"/api/v1/nodes", "/api/v1/pods", "/apis/resource.k8s.io/v1/deviceclasses",
        "/apis/resource.k8s.io/v1/resourceslices", "/apis/resource.k8s.io/v1/resourceclaims",
        "/apis/resource.k8s.io/v1/devicetaintrules",
        "/apis/dra-controller.dev/v1alpha1/devicehealths"}) {
    fleet.items[path];
  }
  auto& classes = fleet.items["/apis/resource.k8s.io/v1/deviceclasses"];
  classes = {FleetObjects::DeviceClass("gpu", true), FleetObjects::DeviceClass("nic", true),
             FleetObjects::DeviceClass("mig", false)};
  for (int n = 0; n < s.nodes; ++n) {
    fleet.items["/api/v1/nodes"].push_back(FleetObjects::Node(n));
    FleetObjects::AppendSlices(s, n, fleet.items["/apis/resource.k8s.io/v1/resourceslices"]);
  }
  fleet.AddPods(s);
  for (int h = 0; h < s.healths; ++h) {
    fleet.items["/apis/dra-controller.dev/v1alpha1/devicehealths"].push_back(
        FleetObjects::Health(h, s.nodes, 1, 70000 + h, "Unknown"));
  }
  for (const auto& [path, list] : fleet.items) fleet.objects += list.size();
  return fleet;
}

}  // namespace dra::bench
