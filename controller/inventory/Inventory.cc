#include "controller/inventory/Inventory.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <unordered_set>

#include "controller/inventory/CelDeviceInput.h"
#include "controller/inventory/Tolerations.h"

namespace dra::inventory {
Inventory::Inventory(std::shared_ptr<prometheus::Registry> metrics)
    : selector_errors_(std::move(metrics)) {}

// ---- slices and pools ------------------------------------------------------

void Inventory::ApplySlice(std::shared_ptr<const api::ResourceSlice> slice) {
  std::unique_lock lock(mu_);
  for (const auto& pool_id : pools_.Apply(std::move(slice))) RebuildPool(pool_id);
}

void Inventory::RemoveSlice(const api::ResourceSlice& slice) {
  std::unique_lock lock(mu_);
  for (const auto& pool_id : pools_.Remove(slice.meta.name)) RebuildPool(pool_id);
}

// Devices of slices that did not change keep their entry and match results;
// the devices of new or replaced slices are evaluated against every class.
void Inventory::RebuildPool(const std::string& pool_id) {
  struct Source {
    std::shared_ptr<const api::ResourceSlice> slice;
    const api::Device* device;
  };
  std::unordered_map<std::string_view, Source> wanted;  // by device name
  for (const auto& slice : pools_.CurrentSlices(pool_id)) {
    for (const auto& device : slice->devices) {
      if (!wanted.emplace(device.name, Source{slice, &device}).second) {
        spdlog::warn("inventory: device {} is published twice in pool {}; keeping the first",
                     device.name, pool_id);
      }
    }
  }
  std::vector<DeviceId> kept;
  for (DeviceId id : entries_.PoolIds(pool_id)) {
    auto it = wanted.find(entries_[id]->device->name);
    if (it != wanted.end() && it->second.slice == entries_[id]->slice) {
      kept.push_back(id);
      wanted.erase(it);
    } else {
      RemoveDevice(id);
    }
  }
  for (auto& [name, source] : wanted) {
    DeviceId id = AddDevice(Entry{source.slice, source.device});
    EvaluateAllClasses(id);
    kept.push_back(id);
  }
  entries_.SetPoolIds(pool_id, std::move(kept));
}

DeviceId Inventory::AddDevice(Entry entry) {
  DeviceId id = entries_.Add(std::move(entry));
  for (auto& [name, cls] : classes_) cls.matches.resize(entries_.size(), false);
  return id;
}

void Inventory::RemoveDevice(DeviceId id) {
  entries_.Remove(id);
  for (auto& [name, cls] : classes_) {
    cls.matches[id] = false;
    if (!cls.failures.empty()) cls.failures.erase(id);
  }
}

// ---- classes and matching ----------------------------------------------------

void Inventory::ApplyClass(std::shared_ptr<const api::DeviceClass> device_class) {
  std::unique_lock lock(mu_);
  auto [it, inserted] = classes_.try_emplace(device_class->meta.name);
  ClassState& entry = it->second;
  bool same_selectors = !inserted && entry.object->selectors == device_class->selectors;
  entry.object = std::move(device_class);
  if (same_selectors) return;
  entry.selector = ClassSelector::Compile(entry.object->selectors, programs_);
  entry.matches.assign(entries_.size(), false);
  entry.ForgetFailures();
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!entries_[id]) continue;
    const Entry& device = *entries_[id];
    EvaluateClass(entry, id, ToCelDevice(*device.device, device.slice->driver));
  }
}

void Inventory::RemoveClass(const api::DeviceClass& device_class) {
  std::unique_lock lock(mu_);
  classes_.erase(device_class.meta.name);
}

void Inventory::RecomputeAllMatches() {
  std::unique_lock lock(mu_);
  for (auto& [name, cls] : classes_) {
    cls.matches.assign(entries_.size(), false);
    cls.ForgetFailures();
  }
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (entries_[id]) EvaluateAllClasses(id);
  }
}

void Inventory::EvaluateAllClasses(DeviceId id) {
  if (classes_.empty()) return;
  const Entry& device = *entries_[id];
  cel::Device input = ToCelDevice(*device.device, device.slice->driver);
  for (auto& [name, cls] : classes_) EvaluateClass(cls, id, input);
}

void Inventory::EvaluateClass(ClassState& entry, DeviceId id, const cel::Device& device) {
  std::optional<ClassSelector::Failure> failure;
  entry.matches[id] = entry.selector.Matches(device, &failure);
  if (!failure) return;
  selector_errors_.Record(entry.object->meta.name, *failure);
  if (!entry.selector.has_compile_error()) entry.RecordFailure(id, std::move(*failure));
}

// ---- claims and taint rules --------------------------------------------------

void Inventory::ApplyClaim(std::shared_ptr<const api::ResourceClaim> claim) {
  std::unique_lock lock(mu_);
  allocations_.Apply(std::move(claim));
}

void Inventory::RemoveClaim(const api::ResourceClaim& claim) {
  std::unique_lock lock(mu_);
  allocations_.Remove(claim.meta);
}

void Inventory::ApplyTaintRule(std::shared_ptr<const api::DeviceTaintRule> rule) {
  std::unique_lock lock(mu_);
  std::string name = rule->meta.name;
  rules_[name] = std::move(rule);
}

void Inventory::RemoveTaintRule(const api::DeviceTaintRule& rule) {
  std::unique_lock lock(mu_);
  rules_.erase(rule.meta.name);
}

// ---- queries -------------------------------------------------------------------

const ClassState* Inventory::FindClass(std::string_view name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : &it->second;
}

bool Inventory::Matches(const ClassState& entry, DeviceId id) const {
  return id < entry.matches.size() && entry.matches[id] && entries_[id].has_value();
}

std::vector<api::DeviceTaint> Inventory::TaintsOf(const Entry& entry) const {
  std::vector<api::DeviceTaint> taints = entry.device->taints;
  for (const auto& [name, rule] : rules_) {
    if (rule->Matches(entry.slice->driver, entry.slice->pool.name, entry.device->name)) {
      taints.push_back(rule->taint);
    }
  }
  return taints;
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
  info.node_selector = selection == Selection::kNodeSelector;
  const PoolStatus* pool =
      pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
  info.pool_complete = pool != nullptr && pool->complete();
  info.allow_multiple_allocations = entry.device->allow_multiple_allocations;
  info.taints = TaintsOf(entry);
  if (const auto* held = allocations_.Holders(info.key.ToString())) info.allocated_to = *held;
  return info;
}

// ---- unusable classes (ClassBlockerScan) ----------------------------------------

ClassBlockerScan Inventory::Scan() const {
  return ClassBlockerScan(entries_, [this](const Entry& entry) { return Evaluated(entry); });
}

bool Inventory::Evaluated(const Entry& entry) const {
  const PoolStatus* pool =
      pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
  if (pool == nullptr || !pool->complete()) return false;
  return entry.device->allow_multiple_allocations || !allocations_.InUse(entry.Key().ToString());
}

std::optional<ClassUnusable> Inventory::Unusable(std::string_view class_name,
                                                 std::string_view node) const {
  std::shared_lock lock(mu_);
  const ClassState* cls = FindClass(class_name);
  if (cls == nullptr) return std::nullopt;
  return Scan().On(*cls, node);
}

DeviceCounts Inventory::Count(std::string_view class_name, std::string_view node) const {
  DeviceCounts counts;
  std::shared_lock lock(mu_);
  const ClassState* cls = FindClass(class_name);
  if (cls == nullptr) return counts;
  for (const DeviceInfo& device : MatchingLocked(*cls, node)) counts.Add(device);
  counts.MarkUnusable(Scan().On(*cls, node));
  return counts;
}

std::map<std::string, DeviceCounts> Inventory::CountPerNode(std::string_view class_name) const {
  std::map<std::string, DeviceCounts> counts;
  std::shared_lock lock(mu_);
  const ClassState* cls = FindClass(class_name);
  if (cls == nullptr) return counts;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!Matches(*cls, id)) continue;
    if (auto node = DeviceTable::NodeKey(*entries_[id])) {
      counts[std::string(*node)].Add(Describe(*entries_[id]));
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

std::vector<DeviceInfo> Inventory::DevicesMatching(std::string_view class_name,
                                                   std::string_view node) const {
  std::shared_lock lock(mu_);
  const ClassState* cls = FindClass(class_name);
  if (cls == nullptr) return {};
  return MatchingLocked(*cls, node);
}

std::vector<DeviceInfo> Inventory::MatchingLocked(const ClassState& entry,
                                                  std::string_view node) const {
  std::vector<DeviceInfo> out;
  for (DeviceId id : entries_.Candidates(node)) {
    if (Matches(entry, id)) out.push_back(Describe(*entries_[id]));
  }
  return out;
}

RequestCounts Inventory::CountForRequest(const api::ResourceClaim::ExactRequest& request,
                                         std::string_view node) const {
  RequestCounts result;
  ClassSelector own = ClassSelector::Compile(request.selectors, programs_);
  std::shared_lock lock(mu_);
  const ClassState* cls = FindClass(request.device_class_name);
  if (cls == nullptr) return result;
  result.class_exists = true;
  bool aborts = false;  // the request's own selectors fail where the scheduler looks
  for (DeviceId id : entries_.Candidates(node)) {
    if (!Matches(*cls, id)) continue;
    const Entry& entry = *entries_[id];
    std::optional<ClassSelector::Failure> failure;
    bool selected = own.Matches(ToCelDevice(*entry.device, entry.slice->driver), &failure);
    if (failure && !result.selector_error) result.selector_error = failure;
    if (failure && Evaluated(entry)) aborts = true;
    if (selected) result.counts.Add(Describe(entry), request.tolerations);
  }
  if (aborts) result.counts.free = 0;
  result.counts.MarkUnusable(Scan().On(*cls, node));
  return result;
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

std::vector<std::string> Inventory::ClassesMatching(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  auto id = entries_.IdOf(key);
  if (!id) return out;
  for (const auto& [name, cls] : classes_) {
    if (Matches(cls, *id)) out.push_back(name);
  }
  return out;
}

std::vector<PodUse> Inventory::PodsUsing(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  return allocations_.PodsUsing(key.ToString());
}

std::vector<PoolStatus> Inventory::Pools() const {
  std::shared_lock lock(mu_);
  return pools_.Pools();
}

std::vector<SelectorError> Inventory::SelectorErrors() const {
  std::shared_lock lock(mu_);
  return selector_errors_.Errors();
}

uint64_t Inventory::selector_error_total() const {
  std::shared_lock lock(mu_);
  return selector_errors_.total();
}

size_t Inventory::device_count() const {
  std::shared_lock lock(mu_);
  return entries_.count();
}

bool Inventory::HasClass(std::string_view class_name) const {
  std::shared_lock lock(mu_);
  return FindClass(class_name) != nullptr;
}

// ---- Allocation metrics (#10): single-pass reads for scrapes ---------------------

void Inventory::VisitDevices(const std::function<void(const DeviceVisit&)>& visit) const {
  std::shared_lock lock(mu_);
  std::vector<const ClassState*> classes;
  std::vector<ClassBlockers> blockers;  // parallel to `classes`
  ClassBlockerScan scan = Scan();
  for (const auto& [name, cls] : classes_) {
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
      if (!Matches(*classes[i], id)) continue;
      matching.push_back(classes[i]->object->meta.name);
      const ClassBlockers& b = blockers[i];
      if (b.every_node || (!node.empty() && b.by_node.contains(node))) {
        unusable.push_back(classes[i]->object->meta.name);
      }
    }
    std::vector<api::DeviceTaint> taints = TaintsOf(entry);
    const PoolStatus* pool =
        pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
    DeviceVisit device{
        .slice = *entry.slice,
        .device = *entry.device,
        .node = node,
        .pool_complete = pool != nullptr && pool->complete(),
        .no_schedule = HasEffect(taints, api::TaintEffect::kNoSchedule),
        .no_execute = HasEffect(taints, api::TaintEffect::kNoExecute),
        .claims = allocations_.Holders(entry.Key().ToString()),
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
  for (const auto& [name, cls] : classes_) out.push_back(cls.object);
  return out;
}

}  // namespace dra::inventory
