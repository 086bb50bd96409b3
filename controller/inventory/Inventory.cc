#include "controller/inventory/Inventory.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

#include "controller/inventory/CelDeviceInput.h"
#include "controller/inventory/DeviceAvailability.h"
#include "controller/inventory/Tolerations.h"

namespace dra::inventory {
Inventory::Inventory(std::shared_ptr<prometheus::Registry> metrics)
    : classes_(std::move(metrics), programs_) {}

// ---- slices and pools ------------------------------------------------------

void Inventory::ApplySlice(std::shared_ptr<const api::ResourceSlice> slice) {
  for (const auto& warning : slice->warnings) {
    spdlog::warn("ResourceSlice {}: {}", slice->meta.name, warning);
  }
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  for (const auto& pool_id : pools_.Apply(std::move(slice))) RebuildPool(pool_id);
}

void Inventory::RemoveSlice(const api::ResourceSlice& slice) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  for (const auto& pool_id : pools_.Remove(slice.meta.name)) RebuildPool(pool_id);
}

// Devices of slices that did not change keep their entry and match results;
// the devices of new or replaced slices are evaluated against every class.
// A device name published twice keeps its first device, in an invalid pool.
void Inventory::RebuildPool(const std::string& pool_id) {
  struct Source {
    std::shared_ptr<const api::ResourceSlice> slice;
    const api::Device* device;
  };
  std::unordered_map<std::string_view, Source> wanted;  // by device name
  for (const auto& slice : pools_.CurrentSlices(pool_id)) {
    if (!slice->shared_counters.empty()) continue;  // the allocator ignores its devices
    for (const auto& device : slice->devices) wanted.emplace(device.name, Source{slice, &device});
  }
  std::vector<DeviceId> kept;
  for (DeviceId id : entries_.PoolIds(pool_id)) {
    auto it = wanted.find(entries_[id]->device->name);
    if (it != wanted.end() && it->second.slice == entries_[id]->slice) {
      kept.push_back(id);
      wanted.erase(it);
    } else {
      classes_.Removed(id);
      entries_.Remove(id);
    }
  }
  for (auto& [name, source] : wanted) {
    DeviceId id = entries_.Add(Entry{source.slice, source.device});
    classes_.Added(id, entries_);
    kept.push_back(id);
  }
  entries_.SetPoolIds(pool_id, std::move(kept));
  RecomputeCounters(pool_id);
  const PoolStatus* pool = pools_.Find(pool_id);
  if (pool == nullptr || pool->valid()) return;
  // While a pool's slices still arrive (a device slice before its counter
  // slice, as during every sync) it is incomplete and unallocatable anyway:
  // only a complete pool's inconsistency is worth a warning.
  if (pool->complete()) {
    spdlog::warn("inventory: pool {} is invalid, none of its devices is allocatable: {}", pool_id,
                 pool->invalid_reason);
  } else {
    spdlog::debug("inventory: incomplete pool {} is not consistent yet: {}", pool_id,
                  pool->invalid_reason);
  }
}

void Inventory::RecomputeCounters(const std::string& pool_id) {
  const PoolStatus* pool = pools_.Find(pool_id);
  if (pool == nullptr || pool->counter_sets.empty()) return counters_.Forget(pool_id);
  std::vector<const api::Device*> allocated;
  for (DeviceId id : entries_.PoolIds(pool_id)) {
    if (allocations_.Allocated(entries_[id]->KeyView())) {
      allocated.push_back(entries_[id]->device);
    }
  }
  counters_.Recompute(pool_id, pool->counter_sets, allocated);
}

// ---- classes and matching ----------------------------------------------------

void Inventory::ApplyClass(std::shared_ptr<const api::DeviceClass> device_class) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  classes_.Apply(std::move(device_class), entries_);
}

void Inventory::RemoveClass(const api::DeviceClass& device_class) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  classes_.Remove(device_class.meta.name);
}

void Inventory::RecomputeAllMatches() {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  classes_.RecomputeAll(entries_);
}

// ---- claims and taint rules --------------------------------------------------

void Inventory::ApplyClaim(std::shared_ptr<const api::ResourceClaim> claim) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  for (const auto& pool_id : allocations_.Apply(std::move(claim))) RecomputeCounters(pool_id);
}

void Inventory::RemoveClaim(const api::ResourceClaim& claim) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  for (const auto& pool_id : allocations_.Remove(claim.meta)) RecomputeCounters(pool_id);
}

void Inventory::ApplyTaintRule(std::shared_ptr<const api::DeviceTaintRule> rule) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  std::string name = rule->meta.name;
  rules_[name] = std::move(rule);
}

void Inventory::RemoveTaintRule(const api::DeviceTaintRule& rule) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  rules_.erase(rule.meta.name);
}

// ---- node labels: only selectors are re-checked, against the changed node --------

void Inventory::ApplyNode(std::shared_ptr<const api::NodeView> node) {
  std::unique_lock lock(mu_);
  // A Node update with the same labels (a kubelet's status) changes nothing here.
  if (entries_.node_labels().ApplyNode(node->meta.name, node->meta.labels)) changes_.Moved();
}

void Inventory::RemoveNode(const api::NodeView& node) {
  std::unique_lock lock(mu_);
  auto bump = changes_.Update();
  entries_.node_labels().RemoveNode(node.meta.name);
}

// ---- queries -------------------------------------------------------------------

std::vector<api::DeviceTaint> Inventory::TaintsOf(const Entry& entry) const {
  std::vector<api::DeviceTaint> taints(entry.device->taints.begin(), entry.device->taints.end());
  for (const auto& [name, rule] : rules_) {
    if (rule->Matches(entry.slice->driver, entry.slice->pool.name, entry.device->name)) {
      taints.push_back(rule->taint);
    }
  }
  return taints;
}

void Inventory::DescribeTaints(const Entry& entry, DeviceInfo& info) const {
  for (const auto& taint : entry.device->taints) {
    info.taints.push_back(taint);
    info.taint_sources.push_back({TaintSource::Kind::kDriver, nullptr});
  }
  for (const auto& [name, rule] : rules_) {
    if (rule->Matches(entry.slice->driver, entry.slice->pool.name, entry.device->name)) {
      info.taints.push_back(rule->taint);
      info.taint_sources.push_back({TaintSource::Kind::kRule, rule});
    }
  }
}

namespace {

void AddEffect(const api::DeviceTaint& taint, TaintEffects& effects) {
  api::TaintEffect effect = taint.EffectiveEffect();
  effects.no_schedule |= effect == api::TaintEffect::kNoSchedule;
  effects.no_execute |= effect == api::TaintEffect::kNoExecute;
}

}  // namespace

void Inventory::TaintEffectsOf(const Entry& entry, TaintEffects& driver, TaintEffects& rule) const {
  for (const auto& taint : entry.device->taints) AddEffect(taint, driver);
  for (const auto& [name, r] : rules_) {
    if (r->Matches(entry.slice->driver, entry.slice->pool.name, entry.device->name)) {
      AddEffect(r->taint, rule);
    }
  }
}

DeviceInfo Inventory::Describe(const Entry& entry) const {
  using Selection = api::ResourceSlice::NodeSelection;
  DeviceInfo info;
  info.key = entry.Key();
  info.slice_name = entry.slice->meta.name;
  const auto selection = entry.slice->node_selection;
  if (selection == Selection::kNodeName) info.node_name = entry.slice->node_name;
  if (selection == Selection::kPerDevice) info.node_name = entry.device->node_name;
  info.all_nodes = selection == Selection::kAllNodes ||
                   (selection == Selection::kPerDevice && entry.device->all_nodes);
  info.node_selector = selection == Selection::kNodeSelector ||
                       NodeLabels::SelectorOf(*entry.slice, *entry.device) != nullptr;
  DescribeTaints(entry, info);
  Availability().Describe(entry, info);
  return info;
}

// ---- unusable classes (ClassBlockerScan) ----------------------------------------

ClassBlockerScan Inventory::Scan() const {
  return ClassBlockerScan(entries_, [this](const Entry& entry) { return Evaluated(entry); });
}

bool Inventory::Evaluated(const Entry& entry) const { return Availability().Evaluated(entry); }

DeviceAvailability Inventory::Availability() const {
  return DeviceAvailability(pools_, allocations_, counters_);
}

std::optional<ClassUnusable> Inventory::Unusable(std::string_view class_name,
                                                 std::string_view node) const {
  std::shared_lock lock(mu_);
  const ClassState* cls = classes_.Find(class_name);
  if (cls == nullptr) return std::nullopt;
  return Scan().On(*cls, node);
}

DeviceCounts Inventory::Count(std::string_view class_name, std::string_view node) const {
  DeviceCounts counts;
  std::shared_lock lock(mu_);
  const ClassState* cls = classes_.Find(class_name);
  if (cls == nullptr) return counts;
  for (const DeviceInfo& device : MatchingLocked(*cls, node)) counts.Add(device);
  counts.MarkUnusable(Scan().On(*cls, node));
  return counts;
}

std::map<std::string, DeviceCounts> Inventory::CountPerNode(std::string_view class_name) const {
  std::map<std::string, DeviceCounts> counts;
  std::shared_lock lock(mu_);
  const ClassState* cls = classes_.Find(class_name);
  if (cls == nullptr) return counts;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!ClassIndex::Matches(*cls, id)) continue;
    const Entry& entry = *entries_[id];
    if (auto node = DeviceTable::NodeKey(entry)) {
      counts[std::string(*node)].Add(Describe(entry));
    } else if (auto* selector = NodeLabels::SelectorOf(*entry.slice, *entry.device)) {
      DeviceInfo info = Describe(entry);
      for (std::string_view node : entries_.node_labels().NodesPicked(*selector)) {
        counts[std::string(node)].Add(info);
      }
    }
  }
  ClassBlockers blockers = Scan().All(*cls);
  for (const auto& [node, unusable] : blockers.by_node) counts.try_emplace(std::string(node));
  if (blockers.every_node) counts.try_emplace("");
  for (auto& [node, node_counts] : counts) {
    node_counts.MarkUnusable(node.empty() ? blockers.every_node : blockers.On(node));
  }
  return counts;
}

bool Inventory::AnyDeviceMatches(std::string_view class_name) const {
  std::shared_lock lock(mu_);
  const ClassState* cls = classes_.Find(class_name);
  if (cls == nullptr) return false;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (entries_[id] && ClassIndex::Matches(*cls, id)) return true;
  }
  return false;
}

std::vector<DeviceInfo> Inventory::DevicesMatching(std::string_view class_name,
                                                   std::string_view node) const {
  std::shared_lock lock(mu_);
  const ClassState* cls = classes_.Find(class_name);
  if (cls == nullptr) return {};
  return MatchingLocked(*cls, node);
}

std::vector<DeviceInfo> Inventory::MatchingLocked(const ClassState& entry,
                                                  std::string_view node) const {
  std::vector<DeviceInfo> out;
  for (DeviceId id : entries_.Candidates(node)) {
    if (ClassIndex::Matches(entry, id)) out.push_back(Describe(*entries_[id]));
  }
  return out;
}

RequestCounts Inventory::CountForRequest(const api::ResourceClaim::ExactRequest& request,
                                         std::string_view node) const {
  RequestCounts result;
  ClassSelector own = ClassSelector::Compile(request.selectors, programs_);
  std::shared_lock lock(mu_);
  const ClassState* cls = classes_.Find(request.device_class_name);
  if (cls == nullptr) return result;
  result.class_exists = true;
  result.invalid_reason = request.invalid_reason;
  DeviceAvailability availability = Availability();
  bool aborts = false;  // the request's own selectors fail where the scheduler looks
  for (DeviceId id : entries_.Candidates(node)) {
    if (!ClassIndex::Matches(*cls, id)) continue;
    const Entry& entry = *entries_[id];
    std::optional<ClassSelector::Failure> failure;
    bool selected = own.Matches(ToCelDevice(*entry.device, entry.slice->driver), &failure);
    if (failure && !result.selector_error) result.selector_error = failure;
    // An adminAccess request also gets to the selectors of devices in use.
    if (failure && (request.admin_access ? availability.AvailableFor(entry, &request)
                                         : availability.Evaluated(entry))) {
      aborts = true;
    }
    if (!selected) continue;
    DeviceInfo info = Describe(entry);
    info.available = availability.AvailableFor(entry, &request);
    result.counts.Add(info, request.tolerations);
  }
  if (aborts || !request.invalid_reason.empty()) result.counts.free = 0;
  result.counts.MarkUnusable(Scan().On(*cls, node));
  return result;
}

ClaimFit Inventory::CheckClaim(const api::ResourceClaim& claim, std::string_view node) const {
  std::shared_lock lock(mu_);
  ClaimFeasibility feasibility({
      .entries = entries_,
      .classes = classes_,
      .pools = pools_,
      .allocations = allocations_,
      .counters = counters_,
      .programs = programs_,
      .taints = [this](const Entry& entry) { return TaintsOf(entry); },
      .unusable = [this](const ClassState& cls, std::string_view on) { return Scan().On(cls, on); },
  });
  return feasibility.Check(claim, node);
}

std::optional<DeviceInfo> Inventory::Find(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  auto id = entries_.IdOf(key);
  if (!id) return std::nullopt;
  return Describe(*entries_[*id]);
}

std::vector<DeviceInfo> Inventory::Devices() const {
  std::shared_lock lock(mu_);
  std::vector<DeviceInfo> out;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (entries_[id]) out.push_back(Describe(*entries_[id]));
  }
  std::sort(out.begin(), out.end(),
            [](const DeviceInfo& a, const DeviceInfo& b) { return a.key < b.key; });
  return out;
}

std::vector<DeviceInfo> Inventory::PoolDevices(std::string_view driver,
                                               std::string_view pool) const {
  std::shared_lock lock(mu_);
  std::vector<DeviceInfo> out;
  for (DeviceId id : entries_.PoolIds(PoolTracker::PoolId(driver, pool))) {
    out.push_back(Describe(*entries_[id]));
  }
  std::sort(out.begin(), out.end(),
            [](const DeviceInfo& a, const DeviceInfo& b) { return a.key < b.key; });
  return out;
}

std::map<std::string, size_t> Inventory::DevicesPerPool() const {
  std::shared_lock lock(mu_);
  return entries_.PoolSizes();
}

std::vector<std::string> Inventory::ClassesMatching(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  auto id = entries_.IdOf(key);
  if (!id) return out;
  for (const auto& [name, cls] : classes_.all()) {
    if (ClassIndex::Matches(cls, *id)) out.push_back(name);
  }
  return out;
}

std::vector<PodUse> Inventory::PodsUsing(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  return allocations_.PodsUsing(key.View());
}

std::shared_ptr<const api::ResourceClaim> Inventory::Claim(std::string_view namespace_name,
                                                           std::string_view name) const {
  std::shared_lock lock(mu_);
  return allocations_.Claim(namespace_name, name);
}

std::vector<PodUse> Inventory::PodsWithAdminAccess(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  return allocations_.PodsUsing(key.View(), /*admin_access=*/true);
}

std::vector<PoolStatus> Inventory::Pools() const {
  std::shared_lock lock(mu_);
  return pools_.Pools();
}

std::vector<SelectorError> Inventory::SelectorErrors() const {
  std::shared_lock lock(mu_);
  return classes_.errors().Errors();
}

uint64_t Inventory::selector_error_total() const {
  std::shared_lock lock(mu_);
  return classes_.errors().total();
}

size_t Inventory::device_count() const {
  std::shared_lock lock(mu_);
  return entries_.count();
}

bool Inventory::HasClass(std::string_view class_name) const {
  std::shared_lock lock(mu_);
  return classes_.Find(class_name) != nullptr;
}

// ---- Allocation metrics (#10): single-pass reads for scrapes ---------------------

void Inventory::VisitDevices(const std::function<void(const DeviceVisit&)>& visit) const {
  std::shared_lock lock(mu_);
  std::vector<const ClassState*> classes;
  std::vector<ClassBlockers> blockers;  // parallel to `classes`
  ClassBlockerScan scan = Scan();
  DeviceAvailability availability = Availability();
  for (const auto& [name, cls] : classes_.all()) {
    classes.push_back(&cls);
    blockers.push_back(scan.All(cls));
  }
  std::vector<std::string_view> matching;
  std::vector<std::string_view> unusable;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!entries_[id]) continue;
    const Entry& entry = *entries_[id];
    matching.clear();
    unusable.clear();
    // A device every node reaches (or behind a node selector) is unusable
    // for a class only where the class is unusable on every node.
    std::string_view node = DeviceTable::NodeKey(entry).value_or(std::string_view());
    for (size_t i = 0; i < classes.size(); ++i) {
      if (!ClassIndex::Matches(*classes[i], id)) continue;
      matching.push_back(classes[i]->object->meta.name);
      const ClassBlockers& b = blockers[i];
      if (b.every_node || (!node.empty() && b.by_node.contains(node))) {
        unusable.push_back(classes[i]->object->meta.name);
      }
    }
    TaintEffects driver_taints;
    TaintEffects rule_taints;
    TaintEffectsOf(entry, driver_taints, rule_taints);
    DeviceKeyView key = entry.KeyView();
    DeviceFacts facts = availability.Facts(entry, driver_taints.any() || rule_taints.any());
    DeviceVisit device{
        .slice = *entry.slice,
        .device = *entry.device,
        .node = node,
        .pool_complete = facts.pool_complete,
        .pool_valid = facts.pool_valid,
        .available = facts.available,
        .state = DeviceState::Of(facts),
        .no_schedule = driver_taints.no_schedule || rule_taints.no_schedule,
        .no_execute = driver_taints.no_execute || rule_taints.no_execute,
        .driver_taints = driver_taints,
        .rule_taints = rule_taints,
        .claims = allocations_.Holders(key),
        .admin_access_claims = allocations_.AdminAccessClaims(key),
        .classes = matching,
        .unusable = unusable.empty() ? nullptr : &unusable,
    };
    visit(device);
  }
}

void Inventory::VisitClaims(const std::function<void(const api::ResourceClaim&)>& visit) const {
  std::shared_lock lock(mu_);
  allocations_.Visit(visit);
}

std::vector<std::shared_ptr<const api::DeviceClass>> Inventory::ClassObjects() const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<const api::DeviceClass>> out;
  for (const auto& [name, cls] : classes_.all()) out.push_back(cls.object);
  return out;
}

}  // namespace dra::inventory
