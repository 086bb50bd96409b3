#include "controller/inventory/ClaimFeasibility.h"

#include <algorithm>
#include <limits>

#include "controller/inventory/CelDeviceInput.h"
#include "controller/inventory/Tolerations.h"

namespace dra::inventory {
namespace {

using Mode = api::ResourceClaim::AllocationMode;

// Whether the device could ever take the request, shares aside: the All
// request's static capacity check (validateDeviceRequest).
bool StaticCapacityFits(const api::Device& device,
                        std::span<const std::pair<std::string, kube::Quantity>> requests) {
  for (const auto& [name, quantity] : requests) {
    if (device.FindCapacity(name) == nullptr) return false;
  }
  for (const auto& [name, value] : device.capacity) {
    std::optional<kube::Quantity> requested;
    for (const auto& [n, q] : requests)
      if (n == name) requested = q;
    auto need = api::CapacityPolicy::Consumption(device.FindCapacityPolicy(name), value, requested);
    if (!need || *need > value) return false;
  }
  return true;
}

size_t DevicesNeeded(const SearchRequest& request) {
  return request.all ? request.devices.size()
                     : static_cast<size_t>(std::max<int64_t>(0, request.count));
}

}  // namespace

ClaimFeasibility::NodeDevices ClaimFeasibility::OnNode(std::string_view node) const {
  NodeDevices out;
  out.ids = view_.entries.Candidates(node);
  std::sort(out.ids.begin(), out.ids.end(), [&](DeviceId a, DeviceId b) {
    return view_.entries[a]->Key() < view_.entries[b]->Key();
  });
  out.ids.erase(std::unique(out.ids.begin(), out.ids.end()), out.ids.end());
  for (DeviceId id : out.ids) {
    const auto& slice = *view_.entries[id]->slice;
    out.pools.insert(PoolTracker::PoolId(slice.driver, slice.pool.name));
  }
  return out;
}

SearchDevice ClaimFeasibility::Describe(const DeviceTable::Entry& entry,
                                        const ExactRequest& request) const {
  SearchDevice out;
  out.key = entry.Key().ToString();
  out.pool_id = PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name);
  out.device = entry.device;
  const bool shared = entry.device->allow_multiple_allocations;
  const DeviceKeyView key = entry.KeyView();
  out.in_use = shared ? view_.allocations.InUse(key) : view_.allocations.Allocated(key);
  out.shared_in_use = shared && view_.allocations.Allocated(key);
  out.tolerated = UntoleratedTaints(view_.taints(entry), request.tolerations).empty();
  if (shared) out.consumed = view_.allocations.Consumed(key);
  return out;
}

bool ClaimFeasibility::Prepare(const ExactRequest& request, const std::string& name,
                               std::string_view node, const NodeDevices& devices,
                               SearchRequest& out, ClaimFit& fit) const {
  out.name = name;
  out.all = request.allocation_mode == Mode::kAll;
  out.count = request.count;
  out.admin_access = request.admin_access;
  out.capacity_requests.assign(request.capacity_requests.begin(), request.capacity_requests.end());
  if (!request.invalid_reason.empty()) {
    fit.aborts = true;
    fit.reason = "request " + name + ": " + request.invalid_reason;
    return false;
  }
  const ClassState* cls = view_.classes.Find(request.device_class_name);
  if (cls == nullptr) {
    fit.reason =
        "request " + name + ": device class " + request.device_class_name + " does not exist";
    return false;
  }
  if (auto unusable = view_.unusable(*cls, node)) {
    fit.aborts = true;
    fit.reason = "request " + name + ": " + unusable->Describe();
    return false;
  }
  // allocationMode All must see every device: any incomplete or invalid
  // pool that reaches the node, of any driver or class, is an error.
  for (const auto& pool_id : devices.pools) {
    const PoolStatus* pool = out.all ? view_.pools.Find(pool_id) : nullptr;
    if (pool == nullptr || (pool->complete() && pool->valid())) continue;
    fit.aborts = true;
    fit.reason = "request " + name + ": asks for all devices, but resource pool " + pool_id +
                 (pool->complete() ? " is currently invalid" : " is currently being updated");
    return false;
  }
  ClassSelector own = ClassSelector::Compile(request.selectors, view_.programs);
  for (DeviceId id : devices.ids) {
    if (!ClassIndex::Matches(*cls, id)) continue;
    const DeviceTable::Entry& entry = *view_.entries[id];
    const PoolStatus* pool =
        view_.pools.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
    if (pool == nullptr || !pool->complete() || !pool->valid()) continue;
    SearchDevice device = Describe(entry, request);
    std::optional<ClassSelector::Failure> failure;
    bool selected = own.Matches(ToCelDevice(*entry.device, entry.slice->driver), &failure);
    // The allocator gets to the selectors of every device for All, and of
    // devices not in use otherwise (adminAccess: devices in use too).
    if (failure && (out.all || out.admin_access || !device.in_use)) {
      fit.aborts = true;
      fit.reason = "request " + name + ": selector " + failure->expression + " on device " +
                   device.key + ": " + failure->message;
      return false;
    }
    if (!selected) continue;
    if (out.all) {
      if (!StaticCapacityFits(*entry.device, request.capacity_requests)) continue;
    } else if (!device.tolerated || (device.in_use && !out.admin_access)) {
      continue;  // never takeable: keep the search small
    }
    out.devices.push_back(std::move(device));
  }
  return true;
}

ClaimFit ClaimFeasibility::Check(const api::ResourceClaim& claim, std::string_view node) const {
  ClaimFit fit;
  NodeDevices devices = OnNode(node);
  std::vector<SearchAlternatives> requests;
  size_t min_devices = 0;
  for (const auto& request : claim.requests) {
    SearchAlternatives alternatives;
    if (request.exactly) {
      alternatives.emplace_back();
      if (!Prepare(*request.exactly, request.name.str(), node, devices, alternatives.back(), fit)) {
        return fit;
      }
    }
    for (const auto& sub : request.first_available) {
      // resource.k8s.io/v1 DeviceSubRequest has no adminAccess (the API
      // server drops it; deviceSubRequestAccessor.adminAccess is false).
      ExactRequest plain = sub.request;
      plain.admin_access = false;
      alternatives.emplace_back();
      if (!Prepare(plain, request.name + "/" + sub.name, node, devices, alternatives.back(), fit)) {
        return fit;
      }
    }
    if (alternatives.empty()) {
      fit.aborts = true;
      fit.reason = "request " + request.name + ": neither exactly nor firstAvailable";
      return fit;
    }
    size_t fewest = std::numeric_limits<size_t>::max();
    for (const auto& a : alternatives) fewest = std::min(fewest, DevicesNeeded(a));
    min_devices += fewest;
    if (min_devices > ClaimSearch::kMaxResults) {
      fit.aborts = true;
      fit.reason = "request " + request.name + ": the claim needs more than " +
                   std::to_string(ClaimSearch::kMaxResults) + " devices";
      return fit;
    }
    requests.push_back(std::move(alternatives));
  }
  auto remaining = [this](const std::string& pool) { return view_.counters.Remaining(pool); };
  ClaimSearch search(requests, remaining);
  fit.fits = search.Solve();
  if (fit.fits) {
    for (const auto& [request, device] : search.solution()) {
      fit.devices.push_back(request + " " + device);
    }
    return fit;
  }
  fit.search_limit_reached = search.limit_reached();
  fit.reason = fit.search_limit_reached
                   ? "no allocation found within " + std::to_string(ClaimSearch::kMaxSteps) +
                         " device attempts"
                   : Why(requests);
  return fit;
}

std::string ClaimFeasibility::Why(const std::vector<SearchAlternatives>& requests) const {
  auto remaining = [this](const std::string& pool) { return view_.counters.Remaining(pool); };
  for (const auto& alternatives : requests) {
    std::vector<SearchAlternatives> alone{alternatives};
    if (ClaimSearch(alone, remaining).Solve()) continue;
    const SearchRequest& first = alternatives.front();
    std::string name = first.name.substr(0, first.name.find('/'));
    std::string why = "request " + name + ": ";
    for (const auto& a : alternatives) {
      why += (a.name == first.name ? "" : "; ") + a.name + " wants " +
             (a.all ? "all" : std::to_string(a.count)) + " of " + std::to_string(a.devices.size()) +
             " matching devices, not enough are available";
    }
    return why;
  }
  return "the requests cannot be served together: within a claim a device serves one request, "
         "and the devices' counters and capacity must fit together";
}

}  // namespace dra::inventory
